package io.weir.streams.test.reference;

/**
 * One input record of a generated stream: its key and value, the topic and partition it is written
 * to, its event time, and the processing time at which it arrives.
 */
record InputRecord(String key, long value, String topic, int partition, long eventTime, long arrivalTime) {

    InputRecord withEventTime(long time) {
        return new InputRecord(key, value, topic, partition, time, arrivalTime);
    }

    @Override
    public String toString() {
        return key + "=" + value + " -> " + topic + "[" + partition + "] t=" + eventTime + " arrives " + arrivalTime;
    }
}
