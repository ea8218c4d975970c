package io.weir.streams.internals.processor;

/**
 * Names of the topics Weir creates for an application: {@code <application.id>-<name>}, where the name
 * ends in {@value #CHANGELOG_SUFFIX} (a store's changelog, {@code <store>-changelog}) or {@value
 * #REPARTITION_SUFFIX} (a repartition topic, including a foreign-key join's {@code
 * <store>-subscription-repartition} and {@code <store>-response-repartition}). Side outputs, dead letters
 * and source tables' topics are the user's, named by the user, and never internal.
 */
public final class InternalTopics {

    /** The suffix of a store's changelog topic. */
    public static final String CHANGELOG_SUFFIX = "-changelog";

    /** The suffix of a repartition topic. */
    public static final String REPARTITION_SUFFIX = "-repartition";

    private InternalTopics() {}

    public static String name(String applicationId, String logicalName) {
        return applicationId + "-" + logicalName;
    }

    /**
     * Whether {@code topic} is named as an internal topic of {@code applicationId}: its prefix and one of
     * the suffixes. The name alone cannot tell it from a topic of an application whose id starts with
     * {@code <applicationId>-}; the reset tool checks for such applications.
     */
    public static boolean isInternal(String applicationId, String topic) {
        String prefix = applicationId + "-";
        if (!topic.startsWith(prefix)) {
            return false;
        }
        String rest = topic.substring(prefix.length());
        return (rest.endsWith(CHANGELOG_SUFFIX) && rest.length() > CHANGELOG_SUFFIX.length())
                || (rest.endsWith(REPARTITION_SUFFIX) && rest.length() > REPARTITION_SUFFIX.length());
    }
}
