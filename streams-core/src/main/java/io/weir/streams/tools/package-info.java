/**
 * Operating tools that run beside an application rather than inside it: {@link
 * io.weir.streams.tools.ApplicationReset} resets an application so that it processes its input again (the
 * Java entry point of {@code bin/weir-reset}). Public API: stable within a major version.
 */
@NullMarked
package io.weir.streams.tools;

import org.jspecify.annotations.NullMarked;
