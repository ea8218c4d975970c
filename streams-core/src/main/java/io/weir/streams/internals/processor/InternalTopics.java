package io.weir.streams.internals.processor;

/** Names of the topics Weir creates for an application: {@code <application.id>-<name>}. */
public final class InternalTopics {

    private InternalTopics() {}

    public static String name(String applicationId, String logicalName) {
        return applicationId + "-" + logicalName;
    }
}
