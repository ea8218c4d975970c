package io.weir.streams.internals;

import org.apache.kafka.common.config.ConfigDef;

import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link ConfigDef} as the Markdown table of docs/reference/configuration.md, so the
 * reference is generated from the definitions the code validates with (a test fails when it is stale).
 */
public final class ConfigReference {

    private ConfigReference() {}

    /**
     * The reference page: Weir's settings, how client settings pass through, and the refused Kafka
     * Streams settings.
     *
     * @param refused Kafka Streams settings Weir refuses (a prefix ends with {@code *}), with what to do
     *     instead
     */
    public static String markdown(String title, ConfigDef definition, Map<String, String> refused) {
        StringBuilder out = new StringBuilder("# ")
                .append(title)
                .append("\n\n")
                .append("Generated from `StreamsConfig.configDef()`; do not edit by hand (run the build with "
                        + "`-Dweir.docs.write=true` to refresh it).\n\n")
                .append("| key | type | default | valid values | importance | description |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : definition.configKeys().values()) {
            out.append("| `")
                    .append(key.name)
                    .append("` | ")
                    .append(key.type.name().toLowerCase(Locale.ROOT))
                    .append(" | ")
                    .append(
                            !key.hasDefault()
                                    ? "(required)"
                                    : key.defaultValue == null
                                            ? "(see description)"
                                            : "`" + ConfigDef.convertToString(key.defaultValue, key.type) + "`")
                    .append(" | ")
                    .append(
                            key.validator == null
                                    ? ""
                                    : key.validator.toString().replace("|", "\\|"))
                    .append(" | ")
                    .append(key.importance.name().toLowerCase(Locale.ROOT))
                    .append(" | ")
                    .append(key.documentation.replace("|", "\\|").replace("\n", " "))
                    .append(" |\n");
        }
        out.append(
                "\nClient settings pass through: keys prefixed `consumer.`, `producer.` or `admin.` go to that client "
                        + "with the prefix removed; `security.protocol`, `sasl.*`, `ssl.*` and other common client keys go to "
                        + "all three. Weir's own settings for its clients (group id, isolation level, transactional id, "
                        + "assignor) always win. Keys prefixed `serde.` go, prefix removed, to `configure(settings, isKey)` "
                        + "of every serde instance of the topology, once, at construction (for example "
                        + "`serde.schema.registry.url`); without any, serdes are used as given.\n");
        out.append("\n## Kafka Streams settings Weir refuses\n\n"
                + "A key that is neither Weir's nor a client setting is refused when `WeirStreams` is constructed, so "
                + "no setting is silently ignored. These Kafka Streams settings are refused with what to do instead "
                + "(`processing.guarantee=exactly_once_v2` is accepted and means `exactly_once`):\n\n"
                + "| Kafka Streams setting | instead |\n|---|---|\n");
        refused.forEach((key, advice) -> out.append("| `")
                .append(key)
                .append("` | ")
                .append(advice.replace("|", "\\|"))
                .append(" |\n"));
        return out.toString();
    }
}
