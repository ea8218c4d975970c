/**
 * Weir's implementation. Not an API: anything here may change in any release. docs/architecture.md
 * maps the packages below: {@code dsl} (the DSL's implementation), {@code topology}, {@code processor},
 * {@code operator} (the parts every stateful operator shares), {@code window}, {@code task},
 * {@code runtime}, {@code state} and {@code metrics}. Nullness follows the public API's rule (see
 * {@code io.weir.streams}), checked by NullAway in the build.
 */
package io.weir.streams.internals;
