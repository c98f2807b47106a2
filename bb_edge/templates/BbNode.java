package org.bbedge;

/**
 * The bbrt node loop over JNI: feed it bytes from a link (COBS+CRC frames), get back the frames it sends
 * (outputs, pongs, errors). The program is a .bbrt blob built by `bb-edge build` for an MCU-class node;
 * on Android, tensors computed by ExecuTorch (.pte) travel through {@link BbWire} instead.
 */
public final class BbNode implements AutoCloseable {
    static {
        System.loadLibrary("bbedge");
    }

    private long handle;

    /** Load a .bbrt program into a fresh arena of {@code arenaSize} bytes. */
    public BbNode(byte[] program, int arenaSize, int rxSize) {
        handle = nativeInit(program, arenaSize, rxSize);
    }

    /** Feed link bytes; returns the bytes the node sends in response (possibly empty). */
    public byte[] feed(byte[] bytes) {
        return nativeFeed(handle, bytes);
    }

    /** A HELLO control frame announcing this node. */
    public byte[] hello(String name) {
        return nativeHello(handle, name);
    }

    /** Stats indices of {@link #stats} (the C runtime's bbrt_node_stats_t, in order). */
    public static final int FRAMES_OK = 0, BAD_FRAMES = 1, BAD_ENVELOPES = 2, UNKNOWN_EDGE = 3, EDGE_MISMATCH = 4,
            NOT_FOR_ME = 5, INFERENCES = 6, RUN_ERRORS = 7, PINGS = 8, EVICTED = 9;

    /** The node's counters (frames, bad frames and envelopes, inferences, pings ...), by the index constants. */
    public int[] stats() {
        return nativeStats(handle);
    }

    @Override
    public void close() {
        nativeFree(handle);
        handle = 0;
    }

    private static native long nativeInit(byte[] program, int arenaSize, int rxSize);

    private static native byte[] nativeFeed(long handle, byte[] bytes);

    private static native byte[] nativeHello(long handle, String name);

    private static native int[] nativeStats(long handle);

    private static native void nativeFree(long handle);
}
