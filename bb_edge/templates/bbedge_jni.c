/* JNI binding of the bbrt C runtime for Android (and any JVM): envelope codec,
 * COBS+CRC framing and the node loop (firmware/src, firmware/include/bbrt.h).
 * Java side: org/bbedge/BbWire.java (codec, framing) and org/bbedge/BbNode.java
 * (node loop over a .bbrt program). No heap in the runtime itself; the JNI glue
 * allocates one node context per BbNode with malloc. */
#include <jni.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bbrt.h"

static void throw_status(JNIEnv *env, bbrt_status_t st, const char *what) {
    char msg[160];
    jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    snprintf(msg, sizeof msg, "%s: %s", what, bbrt_status_name(st));
    (*env)->ThrowNew(env, cls, msg);
}

static jbyteArray to_java(JNIEnv *env, const uint8_t *p, size_t n) {
    jbyteArray out = (*env)->NewByteArray(env, (jsize)n);
    if (out) (*env)->SetByteArrayRegion(env, out, 0, (jsize)n, (const jbyte *)p);
    return out;
}

JNIEXPORT jbyteArray JNICALL Java_org_bbedge_BbWire_frame(JNIEnv *env, jclass cls, jbyteArray envelope) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, envelope);
    size_t cap = (size_t)n + 4u + ((size_t)n + 4u) / 254u + 2u;
    uint8_t *out = malloc(cap);
    jbyte *in = (*env)->GetByteArrayElements(env, envelope, NULL);
    size_t written = 0;
    bbrt_status_t st = bbrt_frame_encode((const uint8_t *)in, (size_t)n, out, cap, &written);
    (*env)->ReleaseByteArrayElements(env, envelope, in, JNI_ABORT);
    jbyteArray res = NULL;
    if (st == BBRT_OK) res = to_java(env, out, written); else throw_status(env, st, "frame");
    free(out);
    return res;
}

JNIEXPORT jbyteArray JNICALL Java_org_bbedge_BbWire_unframe(JNIEnv *env, jclass cls, jbyteArray frame) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, frame);
    uint8_t *out = malloc((size_t)n + 1u);
    jbyte *in = (*env)->GetByteArrayElements(env, frame, NULL);
    size_t len = 0;
    bbrt_status_t st = bbrt_frame_decode((const uint8_t *)in, (size_t)n, out, (size_t)n + 1u, &len);
    (*env)->ReleaseByteArrayElements(env, frame, in, JNI_ABORT);
    jbyteArray res = NULL;
    if (st == BBRT_OK) res = to_java(env, out, len); else throw_status(env, st, "unframe");
    free(out);
    return res;
}

/* [kind, dtype, rank, flags, protocol, sender, receiver, seq, request_id, response_to, edge,
 *  payload_len, data_offset, step, dims...]; step (offset 60) is carried so a session envelope re-encodes
 *  byte for byte (docs/wire.md, flag SESSION) */
#define BBJ_HDR 14
JNIEXPORT jlongArray JNICALL Java_org_bbedge_BbWire_header(JNIEnv *env, jclass cls, jbyteArray envelope, jlong maxPayload) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, envelope);
    jbyte *in = (*env)->GetByteArrayElements(env, envelope, NULL);
    bbrt_envelope_t e;
    bbrt_status_t st = bbrt_env_decode((const uint8_t *)in, (size_t)n, (size_t)maxPayload, &e);
    (*env)->ReleaseByteArrayElements(env, envelope, in, JNI_ABORT);
    if (st != BBRT_OK) { throw_status(env, st, "decode"); return NULL; }
    jlong h[BBJ_HDR + BBRT_MAX_RANK];
    h[0] = e.kind; h[1] = e.dtype; h[2] = e.rank; h[3] = e.flags; h[4] = e.protocol;
    h[5] = e.sender; h[6] = e.receiver; h[7] = (jlong)e.seq; h[8] = (jlong)e.request_id;
    h[9] = (jlong)e.response_to; h[10] = e.edge; h[11] = e.payload_len; h[12] = bbrt_env_data_offset(e.rank);
    h[13] = (jlong)e.step;
    for (uint32_t i = 0; i < e.rank; i++) h[BBJ_HDR + i] = e.dims[i];
    jlongArray out = (*env)->NewLongArray(env, (jsize)(BBJ_HDR + e.rank));
    if (out) (*env)->SetLongArrayRegion(env, out, 0, (jsize)(BBJ_HDR + e.rank), h);
    return out;
}

JNIEXPORT jbyteArray JNICALL Java_org_bbedge_BbWire_encode(JNIEnv *env, jclass cls, jlongArray header,
                                                          jfloat scale, jint zeroPoint, jbyteArray payload) {
    (void)cls;
    jsize hn = (*env)->GetArrayLength(env, header);
    jlong h[BBJ_HDR + BBRT_MAX_RANK];
    if (hn < BBJ_HDR || hn > (jsize)(BBJ_HDR + BBRT_MAX_RANK)) { throw_status(env, BBRT_E_BAD_RANK, "encode header"); return NULL; }
    (*env)->GetLongArrayRegion(env, header, 0, hn, h);
    bbrt_envelope_t e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)h[0]; e.dtype = (uint8_t)h[1]; e.rank = (uint8_t)h[2]; e.flags = (uint16_t)h[3];
    e.protocol = (uint16_t)h[4]; e.sender = (uint32_t)h[5]; e.receiver = (uint32_t)h[6];
    e.seq = (uint64_t)h[7]; e.request_id = (uint64_t)h[8]; e.response_to = (uint64_t)h[9];
    e.edge = (uint32_t)h[10]; e.step = (uint32_t)h[13]; e.scale = scale; e.zero_point = zeroPoint;
    for (int i = 0; i < e.rank && BBJ_HDR + i < hn; i++) e.dims[i] = (uint32_t)h[BBJ_HDR + i];
    jsize pn = (*env)->GetArrayLength(env, payload);
    e.payload_len = (uint32_t)pn;
    jbyte *p = (*env)->GetByteArrayElements(env, payload, NULL);
    e.data = (const uint8_t *)p;
    size_t cap = bbrt_env_data_offset(e.rank) + (size_t)pn, written = 0;
    uint8_t *out = malloc(cap ? cap : 1);
    bbrt_status_t st = bbrt_env_encode(&e, out, cap, &written);
    (*env)->ReleaseByteArrayElements(env, payload, p, JNI_ABORT);
    jbyteArray res = NULL;
    if (st == BBRT_OK) res = to_java(env, out, written); else throw_status(env, st, "encode");
    free(out);
    return res;
}

/* ---------------------------------------------------------------- node loop */
typedef struct {
    bbrt_node_t node;
    uint8_t *program, *arena, *rx, *tx;
    size_t tx_len, tx_cap;
} jni_node_t;

static void put_bytes(void *ctx, const uint8_t *p, size_t n) {
    jni_node_t *j = ctx;
    if (!p || !n) return;
    if (j->tx_len + n > j->tx_cap) {
        size_t cap = (j->tx_cap ? j->tx_cap : 1024u);
        while (cap < j->tx_len + n) cap *= 2u;
        j->tx = realloc(j->tx, cap);
        j->tx_cap = cap;
    }
    memcpy(j->tx + j->tx_len, p, n);
    j->tx_len += n;
}

static jbyteArray drain(JNIEnv *env, jni_node_t *j) {
    jbyteArray out = to_java(env, j->tx, j->tx_len);
    j->tx_len = 0;
    return out;
}

JNIEXPORT jlong JNICALL Java_org_bbedge_BbNode_nativeInit(JNIEnv *env, jclass cls, jbyteArray program,
                                                         jint arenaSize, jint rxSize) {
    (void)cls;
    jni_node_t *j = calloc(1, sizeof *j);
    jsize n = (*env)->GetArrayLength(env, program);
    j->program = aligned_alloc(16, ((size_t)n + 15u) & ~(size_t)15u);
    (*env)->GetByteArrayRegion(env, program, 0, n, (jbyte *)j->program);
    j->arena = aligned_alloc(16, ((size_t)arenaSize + 15u) & ~(size_t)15u);
    j->rx = aligned_alloc(16, ((size_t)rxSize + 15u) & ~(size_t)15u);
    bbrt_status_t st = bbrt_node_init(&j->node, j->program, (size_t)n, j->arena, (size_t)arenaSize, j->rx,
                                      (size_t)rxSize, put_bytes, j);
    if (st != BBRT_OK) {
        free(j->program); free(j->arena); free(j->rx); free(j);
        throw_status(env, st, "node init");
        return 0;
    }
    return (jlong)(intptr_t)j;
}

JNIEXPORT jbyteArray JNICALL Java_org_bbedge_BbNode_nativeFeed(JNIEnv *env, jclass cls, jlong h, jbyteArray bytes) {
    (void)cls;
    jni_node_t *j = (jni_node_t *)(intptr_t)h;
    jsize n = (*env)->GetArrayLength(env, bytes);
    jbyte *p = (*env)->GetByteArrayElements(env, bytes, NULL);
    bbrt_node_feed(&j->node, (const uint8_t *)p, (size_t)n);
    (*env)->ReleaseByteArrayElements(env, bytes, p, JNI_ABORT);
    return drain(env, j);
}

JNIEXPORT jbyteArray JNICALL Java_org_bbedge_BbNode_nativeHello(JNIEnv *env, jclass cls, jlong h, jstring name) {
    (void)cls;
    jni_node_t *j = (jni_node_t *)(intptr_t)h;
    const char *s = (*env)->GetStringUTFChars(env, name, NULL);
    bbrt_node_hello(&j->node, s);
    (*env)->ReleaseStringUTFChars(env, name, s);
    return drain(env, j);
}

/* [frames_ok, bad_frames, bad_envelopes, unknown_edge, edge_mismatch, not_for_me, inferences, run_errors,
 *  pings, evicted] (bbrt_node_stats_t order) */
JNIEXPORT jintArray JNICALL Java_org_bbedge_BbNode_nativeStats(JNIEnv *env, jclass cls, jlong h) {
    (void)cls;
    jni_node_t *j = (jni_node_t *)(intptr_t)h;
    const bbrt_node_stats_t *s = &j->node.stats;
    jint v[10] = {(jint)s->frames_ok, (jint)s->bad_frames, (jint)s->bad_envelopes, (jint)s->unknown_edge,
                  (jint)s->edge_mismatch, (jint)s->not_for_me, (jint)s->inferences, (jint)s->run_errors,
                  (jint)s->pings, (jint)s->evicted};
    jintArray out = (*env)->NewIntArray(env, 10);
    if (out) (*env)->SetIntArrayRegion(env, out, 0, 10, v);
    return out;
}

JNIEXPORT void JNICALL Java_org_bbedge_BbNode_nativeFree(JNIEnv *env, jclass cls, jlong h) {
    (void)env; (void)cls;
    jni_node_t *j = (jni_node_t *)(intptr_t)h;
    if (!j) return;
    free(j->program); free(j->arena); free(j->rx); free(j->tx); free(j);
}
