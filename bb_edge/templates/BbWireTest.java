package org.bbedge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Host-JVM test of the JNI binding (no JUnit needed): every golden envelope of tests/vectors frames to its
 * golden frame, unframes back, decodes and re-encodes to the same bytes; every link frame body of
 * tests/vectors/link (docs/wire.md, "Link layer") frames to its golden serial frame and unframes back, and a
 * corrupted link frame is refused; a framed ping through a node returns a pong.
 * Usage: java -Djava.library.path=DIR org.bbedge.BbWireTest VECTORS_DIR [PROGRAM.bbrt]
 */
public final class BbWireTest {
    private BbWireTest() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int n = 0;
        try (var files = Files.list(dir)) {
            for (Path bin : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".bin")).sorted()::iterator) {
                byte[] env = Files.readAllBytes(bin);
                Path framePath = Path.of(bin.toString().replace(".bin", ".frame"));
                byte[] frame = BbWire.frame(env);
                if (Files.exists(framePath) && !Arrays.equals(frame, Files.readAllBytes(framePath)))
                    throw new AssertionError("frame mismatch " + bin);
                if (!Arrays.equals(BbWire.unframe(frame), env)) throw new AssertionError("unframe " + bin);
                long[] h = BbWire.header(env, 1L << 26);
                byte[] again = BbWire.encode(h, scaleOf(env), zeroPointOf(env), BbWire.payload(env));
                if (!Arrays.equals(again, env)) throw new AssertionError("re-encode " + bin);
                n++;
            }
        }
        // the session field rules (docs/wire.md, "Validation"): refused as BAD_FIELD, like C and Python
        for (String name : new String[] {"step_without_session.bin", "session_with_response.bin", "session_zero_id.bin"}) {
            Path bad = dir.resolve("invalid").resolve(name);
            try {
                BbWire.header(Files.readAllBytes(bad), 1L << 26);
                throw new AssertionError("invalid session envelope accepted " + bad);
            } catch (IllegalArgumentException expected) {
                if (!expected.getMessage().contains("BAD_FIELD")) throw new AssertionError(bad + ": " + expected.getMessage());
            }
        }
        long[] s = BbWire.header(Files.readAllBytes(dir.resolve("session_step.bin")), 1L << 26);
        if ((s[BbWire.FLAGS] & BbWire.FLAG_SESSION) == 0 || s[BbWire.RESPONSE_TO] == 0)
            throw new AssertionError("session_step.bin: no session marker");
        System.out.println("session step " + s[BbWire.STEP] + " of session " + s[BbWire.RESPONSE_TO]);
        int links = 0;
        Path linkDir = dir.resolve("link");
        if (Files.isDirectory(linkDir)) {
            // link frame bodies travel in the same COBS + CRC-32 serial frames as envelopes
            try (var files = Files.list(linkDir)) {
                for (Path bin : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".bin")).sorted()::iterator) {
                    byte[] body = Files.readAllBytes(bin);
                    byte[] want = Files.readAllBytes(Path.of(bin.toString().replace(".bin", ".frame")));
                    byte[] frame = BbWire.frame(body);
                    if (!Arrays.equals(frame, want)) throw new AssertionError("link frame mismatch " + bin);
                    if (!Arrays.equals(BbWire.unframe(want), body)) throw new AssertionError("link unframe " + bin);
                    links++;
                }
            }
            byte[] badLink = BbWire.frame(Files.readAllBytes(linkDir.resolve("hello_request.bin")));
            badLink[5] ^= 0x01;
            try {
                BbWire.unframe(badLink);
                throw new AssertionError("corrupted link frame accepted");
            } catch (IllegalArgumentException expected) {
                System.out.println("corrupt link frame rejected: " + expected.getMessage());
            }
            System.out.println("OK " + links + " link frames");
        }
        byte[] bad = BbWire.frame(Files.readAllBytes(dir.resolve("control_hello.bin")));
        bad[3] ^= 0x40;
        try {
            BbWire.unframe(bad);
            throw new AssertionError("corrupted frame accepted");
        } catch (IllegalArgumentException expected) {
            System.out.println("corrupt frame rejected: " + expected.getMessage());
        }
        if (args.length > 1) {
            byte[] prog = Files.readAllBytes(Path.of(args[1]));
            try (BbNode node = new BbNode(prog, Integer.parseInt(args[2]), 1 << 20)) {
                byte[] hello = node.hello("android");
                long[] h = BbWire.header(BbWire.unframe(hello), 1 << 20);
                System.out.println("hello kind=" + h[BbWire.KIND] + " sender=" + h[BbWire.SENDER]);
                for (int i = 3; i < args.length; i++) {
                    byte[] out = node.feed(Files.readAllBytes(Path.of(args[i])));
                    Files.write(Path.of(args[i] + ".out"), out);
                    System.out.println("fed " + args[i] + " -> " + out.length + " bytes");
                }
            }
        }
        System.out.println("OK " + n + " vectors");
    }

    private static float scaleOf(byte[] env) {
        return java.nio.ByteBuffer.wrap(env, 48, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getFloat();
    }

    private static int zeroPointOf(byte[] env) {
        return java.nio.ByteBuffer.wrap(env, 52, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    }
}
