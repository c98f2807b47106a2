package org.bbedge;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Host-JVM test of the node loop over JNI (no JUnit needed): a .bbrt program is loaded into a {@link BbNode},
 * a link byte stream (framed input envelopes, a PING, a corrupt frame) is fed in small chunks, and every byte
 * the node sends back is written to OUT for the caller to compare with the C runtime's posix build.
 * Checks here: exactly one PONG answering the PING, the corrupt frame counted and ignored, one output per
 * request. Usage: java -Djava.library.path=DIR org.bbedge.BbNodeTest PROGRAM.bbrt ARENA_BYTES STREAM OUT
 * PING_SEQ PING_SENDER REQUESTS
 */
public final class BbNodeTest {
    private BbNodeTest() {}

    public static void main(String[] args) throws Exception {
        byte[] prog = Files.readAllBytes(Path.of(args[0]));
        int arena = Integer.parseInt(args[1]);
        byte[] stream = Files.readAllBytes(Path.of(args[2]));
        long pingSeq = Long.parseLong(args[4]);
        long pingSender = Long.parseLong(args[5]);
        int requests = Integer.parseInt(args[6]);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        int[] stats;
        try (BbNode node = new BbNode(prog, arena, 1 << 16)) {
            for (int i = 0; i < stream.length; i += 37) {
                byte[] chunk = java.util.Arrays.copyOfRange(stream, i, Math.min(stream.length, i + 37));
                sent.write(node.feed(chunk));
            }
            stats = node.stats();
        }
        byte[] out = sent.toByteArray();
        Files.write(Path.of(args[3]), out);
        int data = 0, pongs = 0;
        for (byte[] frame : frames(out)) {
            long[] h = BbWire.header(BbWire.unframe(frame), 1 << 26);
            if (h[BbWire.KIND] == 0) {
                data++;
            } else if (h[BbWire.EDGE] == 3) {
                if (h[BbWire.RESPONSE_TO] != pingSeq || h[BbWire.RECEIVER] != pingSender)
                    throw new AssertionError("PONG answers seq " + h[BbWire.RESPONSE_TO] + " to " + h[BbWire.RECEIVER]);
                pongs++;
            } else {
                throw new AssertionError("unexpected control envelope code " + h[BbWire.EDGE]);
            }
        }
        if (pongs != 1 || stats[BbNode.PINGS] != 1) throw new AssertionError("pongs " + pongs);
        if (stats[BbNode.BAD_FRAMES] != 1) throw new AssertionError("bad frames " + stats[BbNode.BAD_FRAMES]);
        if (stats[BbNode.INFERENCES] != requests || stats[BbNode.RUN_ERRORS] != 0)
            throw new AssertionError("inferences " + stats[BbNode.INFERENCES]);
        System.out.println("NODE OK data=" + data + " pongs=" + pongs + " bad_frames=" + stats[BbNode.BAD_FRAMES]
                + " inferences=" + stats[BbNode.INFERENCES] + " frames_ok=" + stats[BbNode.FRAMES_OK]
                + " bytes=" + out.length);
    }

    /** Split a byte stream into frames (each ending with its 0x00 delimiter). */
    static List<byte[]> frames(byte[] bytes) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                out.add(java.util.Arrays.copyOfRange(bytes, start, i + 1));
                start = i + 1;
            }
        }
        return out;
    }
}
