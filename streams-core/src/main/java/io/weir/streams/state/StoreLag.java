package io.weir.streams.state;

/**
 * How far one of this instance's readable copies of a store partition is behind, from {@code
 * WeirStreams.localStoreLags()}.
 *
 * @param standby whether it is a standby copy (read only by queries {@link StoreQuery#withStaleReads
 *     with stale reads}); an active task's copy is its committed state, lag 0
 * @param offsetLag the changelog records the copy has not read yet, as of its thread's last poll ({@link
 *     Long#MAX_VALUE} before a standby copy's first one)
 */
public record StoreLag(boolean standby, long offsetLag) {}
