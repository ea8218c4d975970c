package io.weir.benchmarks;

/**
 * One variant at one key count, as given to {@code --variants}: {@code weir-rocksdb} runs at the
 * benchmark's {@code --keys}, {@code weir-rocksdb@1000000} at 1,000,000 keys.
 */
record RunSpec(Variant variant, int keys) {

    static RunSpec parse(String text, int defaultKeys) {
        int at = text.indexOf('@');
        if (at < 0) {
            return new RunSpec(Variant.byId(text), defaultKeys);
        }
        return new RunSpec(Variant.byId(text.substring(0, at)), OptionValues.positiveInt("keys of " + text,
                text.substring(at + 1)));
    }

    @Override
    public String toString() {
        return variant.id() + "@" + keys;
    }
}
