/**
 * Testing topologies without a broker: {@link io.weir.streams.test.TestDriver} runs a topology
 * deterministically on virtual time, with the same tasks, operators and stores as the runtime; pipe
 * records in through {@link io.weir.streams.test.TestInputTopic}, read results and side outputs
 * through {@link io.weir.streams.test.TestOutputTopic}, inspect metrics and stores. Public API:
 * stable within a major version.
 */
@NullMarked
package io.weir.streams.test;

import org.jspecify.annotations.NullMarked;
