package io.weir.examples;

/**
 * Input data a command cannot use (as opposed to a bad command line): {@link Main} prints the
 * message, which says where the data is wrong, and exits with 1.
 */
final class InputDataException extends RuntimeException {

    InputDataException(String message) {
        super(message);
    }
}
