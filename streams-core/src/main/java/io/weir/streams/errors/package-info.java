/**
 * What goes wrong and who decides what happens then: the handlers for records that cannot be read
 * ({@link io.weir.streams.errors.RecordErrorHandler}), processed
 * ({@link io.weir.streams.errors.ProcessingErrorHandler}) or written
 * ({@link io.weir.streams.errors.ProductionErrorHandler}), the errors they are given, their decisions
 * ({@link io.weir.streams.errors.ErrorDecision}: fail, skip, or dead-letter as a
 * {@link io.weir.streams.errors.DeadLetterRecord}), and the handler for a stream thread's failure
 * ({@link io.weir.streams.errors.StreamsUncaughtExceptionHandler}). Public API: stable within a major
 * version.
 */
@NullMarked
package io.weir.streams.errors;

import org.jspecify.annotations.NullMarked;
