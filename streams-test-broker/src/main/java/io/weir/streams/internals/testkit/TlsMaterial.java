package io.weir.streams.internals.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for a test broker on 127.0.0.1, made with the JDK's {@code keytool}: the
 * broker's PKCS12 key store, and the certificate in PEM for clients to trust.
 *
 * @param keyStore the broker's key store (PKCS12), holding its key and certificate
 * @param password the key store's and the key's password
 * @param certificatePem the certificate, for clients' {@code ssl.truststore.certificates}
 */
public record TlsMaterial(Path keyStore, String password, String certificatePem) {

    /** Makes the material in {@code dir}: a 2048-bit RSA key, valid two days, for 127.0.0.1 and localhost. */
    public static TlsMaterial generate(Path dir) {
        byte[] secret = new byte[12];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        Path keyStore = dir.resolve("broker.p12");
        Path certificate = dir.resolve("broker.pem");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                password,
                "-keypass",
                password);
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "broker",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                password,
                "-file",
                certificate.toString());
        try {
            return new TlsMaterial(keyStore, password, Files.readString(certificate, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the certificate keytool wrote to " + certificate, e);
        }
    }

    @Override
    public String toString() {
        // Not the record's own: that would print the password.
        return "TlsMaterial[" + keyStore + "]";
    }

    private static void keytool(String... args) {
        Path tool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>();
        command.add(tool.toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                // The arguments hold the password: report the tool's output, not the command.
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot run " + tool + " (a JDK, not a JRE, is needed for TLS tests)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running keytool", e);
        }
    }
}
