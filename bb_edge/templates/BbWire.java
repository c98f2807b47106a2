package org.bbedge;

/** bb-edge wire envelope v1 codec and COBS+CRC framing, implemented by the bbrt C runtime over JNI. */
public final class BbWire {
    static {
        System.loadLibrary("bbedge");
    }

    private BbWire() {}

    /** Header field indices of {@link #header}; STEP is a session step (flag SESSION, RESPONSE_TO = session id). */
    public static final int KIND = 0, DTYPE = 1, RANK = 2, FLAGS = 3, PROTOCOL = 4, SENDER = 5, RECEIVER = 6,
            SEQ = 7, REQUEST_ID = 8, RESPONSE_TO = 9, EDGE = 10, PAYLOAD_LEN = 11, DATA_OFFSET = 12, STEP = 13, DIMS = 14;

    /** COBS(envelope || crc32_le) || 0x00. */
    public static native byte[] frame(byte[] envelope);

    /** The envelope inside one complete frame (CRC checked); IllegalArgumentException if bad. */
    public static native byte[] unframe(byte[] frame);

    /** Bit 3 of FLAGS: a session step (docs/wire.md). */
    public static final long FLAG_SESSION = 1L << 3;

    /** Decode and validate an envelope; header fields by the index constants, then dims. */
    public static native long[] header(byte[] envelope, long maxPayload);

    /** Encode an envelope from header fields (indices as {@link #header}), quant params and payload. */
    public static native byte[] encode(long[] header, float scale, int zeroPoint, byte[] payload);

    /** The payload bytes of an envelope. */
    public static byte[] payload(byte[] envelope) {
        long[] h = header(envelope, Integer.MAX_VALUE);
        byte[] out = new byte[(int) h[PAYLOAD_LEN]];
        System.arraycopy(envelope, (int) h[DATA_OFFSET], out, 0, out.length);
        return out;
    }
}
