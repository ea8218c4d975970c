package io.weir.benchmarks;

import org.jspecify.annotations.Nullable;

/**
 * One variant at one key count, as given to {@code --variants}: {@code weir-rocksdb} runs at the
 * benchmark's {@code --keys} if given, else at its windowing's default (10,000 for tumbling windows,
 * 100,000 for sessions); {@code weir-rocksdb@1000000} at 1,000,000 keys.
 */
record RunSpec(Variant variant, int keys) {

    /** {@code keys} is the {@code --keys} option, or null when it was not given. */
    static RunSpec parse(String text, @Nullable Integer keys) {
        int at = text.indexOf('@');
        if (at < 0) {
            return atKeys(Variant.byId(text), keys);
        }
        return new RunSpec(
                Variant.byId(text.substring(0, at)),
                OptionValues.positiveInt("keys of " + text, text.substring(at + 1)));
    }

    static RunSpec atKeys(Variant variant, @Nullable Integer keys) {
        return new RunSpec(variant, keys != null ? keys : variant.windowing().defaultKeys());
    }

    @Override
    public String toString() {
        return variant.id() + "@" + keys;
    }
}
