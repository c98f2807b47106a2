/* ESP-IDF port of bbrt (copied as main/main.c of the project bb_edge/bbrt/espidf.py generates; the build's
 * facts - node name, deployment, topic prefix, arena size, peers - come from the generated bbrt_config.h).
 * The program is memory-mapped from the "bbrt" data
 * partition (flash a new model without rebuilding), the boot epoch lives in NVS
 * (namespace "bbrt", u32 "epoch", seeded by the NVS image `bb-edge build` writes),
 * the node serves a UART with the link layer (COBS + CRC-32 frames, acks,
 * fragments, docs/wire.md) or, with CONFIG_BBRT_TRANSPORT_MQTT,
 * MQTT topics {prefix}/{deployment}/in/{dst}/{src} (docs/transports.md) on the
 * broker `bb-edge broker` generates: user/password, optional TLS, a persistent
 * session, QoS 1 and a retained last will "down" (as firmware/ports/posix-mqtt).
 * Built for ESP-IDF's linux target (idf.py --preview set-target linux) the same
 * file runs on the host: ESP-IDF emulates the flash in a file, and port_linux.c
 * puts the UART on a tty. The runtime itself never allocates: arena and buffers
 * are static. */
#include <string.h>
#include "esp_log.h"
#include "esp_partition.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "driver/uart.h"
#include "nvs.h"
#include "nvs_flash.h"
#include "bbrt.h"
#include "bbrt_link.h"
#include "bbrt_config.h"
#if CONFIG_IDF_TARGET_LINUX
#include "port_linux.h"
#endif
#if CONFIG_BBRT_TRANSPORT_MQTT
#include "esp_event.h"
#include "esp_netif.h"
#include "esp_wifi.h"
#include "mqtt_client.h"
#if CONFIG_BBRT_MQTT_TLS_BUNDLE
#include "esp_crt_bundle.h"
#endif
#endif

static const char *TAG = "bbrt";
static uint64_t arena[(BBRT_ARENA_SIZE + 7u) / 8u];
static bbrt_node_t node;
static nvs_handle_t store;
static uint8_t store_open;
static char node_name[33] = BBRT_NODE_NAME;
/* the program's data partition subtype (bbrt_config.h) */
#define BBRT_PROGRAM_SUBTYPE ((esp_partition_subtype_t)BBRT_PARTITION_SUBTYPE)

/* the boot epoch in NVS: read, +1, stored and committed before the first HELLO (0 on failure) */
static uint32_t bump_epoch(void) {
    uint32_t e = 0;
    if (!store_open) return 0u;
    if (nvs_get_u32(store, "epoch", &e) != ESP_OK) e = 0u; /* no seed: the first boot is epoch 1 */
    e += 1u;
    if (e == 0u) e = 1u;
    if (nvs_set_u32(store, "epoch", e) != ESP_OK || nvs_commit(store) != ESP_OK) return 0u;
    return e;
}

/* NVS (the "nvs" partition): the boot epoch and the node's name, from the image `bb-edge build` writes */
static void open_store(void) {
    size_t len = sizeof(node_name);
    esp_err_t e = nvs_flash_init();
    if (e == ESP_ERR_NVS_NO_FREE_PAGES || e == ESP_ERR_NVS_NEW_VERSION_FOUND) {
        ESP_LOGW(TAG, "NVS partition unreadable (%s): erased", esp_err_to_name(e));
        if (nvs_flash_erase() == ESP_OK) e = nvs_flash_init();
    }
    store_open = e == ESP_OK && nvs_open("bbrt", NVS_READWRITE, &store) == ESP_OK;
    if (!store_open) ESP_LOGW(TAG, "no NVS: the boot epoch stays 1");
    else if (nvs_get_str(store, "name", node_name, &len) != ESP_OK) strcpy(node_name, BBRT_NODE_NAME);
}

#if CONFIG_BBRT_TRANSPORT_MQTT
/* Topics of bb_edge/wire/topics.py (docs/transports.md), as firmware/ports/posix-mqtt/main.c:
 *   {prefix}/{dep}/in/{dst}/{src}  one envelope per message, QoS 1; {prefix}/{dep}/bcast/{src}
 *   {prefix}/{dep}/presence/{name} retained "up" / "down" (the last will); {prefix}/{dep}/ctl/_host */
#define BBRT_TOPIC(suffix) BBRT_MQTT_PREFIX "/" BBRT_DEPLOYMENT suffix
static const char T_INBOX[] = BBRT_TOPIC("/in/" BBRT_NODE_NAME "/+");
static const char T_INBOX_PREFIX[] = BBRT_TOPIC("/in/" BBRT_NODE_NAME "/");
static const char T_BCAST[] = BBRT_TOPIC("/bcast/+");
static const char T_BCAST_PREFIX[] = BBRT_TOPIC("/bcast/");
static const char T_BCAST_ME[] = BBRT_TOPIC("/bcast/" BBRT_NODE_NAME);
static const char T_PRESENCE[] = BBRT_TOPIC("/presence/" BBRT_NODE_NAME);
static const char T_CTL[] = BBRT_TOPIC("/ctl/_host"); /* the host writes only its own ctl topic (ACL) */
extern const char ca_pem_start[] asm("_binary_ca_pem_start"); /* main/ca.pem (EMBED_TXTFILES) */

static uint64_t rxbuf[(BBRT_RX_BUFFER_SIZE + 7u) / 8u]; /* whole envelopes (one per MQTT message) */
static esp_mqtt_client_handle_t mqtt;
static uint8_t txbuf[BBRT_MAX_ENVELOPE];
static size_t txlen;
static uint8_t tx_overflow, hello_sent;
static struct {
    uint32_t connects, session_resumed, session_resets, sent, received, spoofed, oversize;
} mstats;

/* the deployment's nodes (id, name), from bbrt_config.h */
static const struct { uint32_t id; const char *name; } bbrt_peers[] = { BBRT_PEERS };
static char client_names[BBRT_MAX_CLIENTS + 1u][16];

static const char *peer_name(uint32_t id) {
    size_t i;
    uint32_t slot = bbrt_client_slot(id);
    for (i = 0; i < sizeof(bbrt_peers) / sizeof(bbrt_peers[0]); i++)
        if (bbrt_peers[i].id == id) return bbrt_peers[i].name;
    if (slot != 0u) { /* a client (_client<k>): the owner of a request whose outputs this node produced */
        if (client_names[slot][0] == 0)
            snprintf(client_names[slot], sizeof(client_names[slot]), "_client%u", (unsigned)(slot & 0xFFu));
        return client_names[slot];
    }
    return id == 0u ? "_host" : NULL;
}

/* the node id a topic's {src} names (-1: not a deployment member); "_client<k>", k 1..255 without
 * leading zeros, is client k (id 0xFFFF0000 + k) */
static int64_t peer_id(const char *name, size_t n) {
    size_t i;
    uint32_t k = 0;
    for (i = 0; i < sizeof(bbrt_peers) / sizeof(bbrt_peers[0]); i++)
        if (strlen(bbrt_peers[i].name) == n && memcmp(bbrt_peers[i].name, name, n) == 0) return bbrt_peers[i].id;
    if (n > 7u && n <= 10u && memcmp(name, "_client", 7) == 0 && name[7] != '0') {
        for (i = 7; i < n && name[i] >= '0' && name[i] <= '9'; i++) k = k * 10u + (uint32_t)(name[i] - '0');
        if (i == n && k >= 1u && k <= BBRT_MAX_CLIENTS) return (int64_t)(BBRT_CLIENT_ID_BASE + k);
        return -1;
    }
    return (n == 5u && memcmp(name, "_host", 5) == 0) ? 0 : -1;
}

/* the node's output: chunks of one envelope, then put(0, 0); published to the receiver's inbox */
static void put(void *ctx, const uint8_t *p, size_t n) {
    char topic[160];
    const char *dst;
    uint32_t receiver;
    (void)ctx;
    if (p != NULL) {
        if (n > sizeof(txbuf) - txlen) tx_overflow = 1u;
        else {
            memcpy(txbuf + txlen, p, n);
            txlen += n;
        }
        return;
    }
    /* end of one envelope (at least its fixed header): publish it (QoS 1, kept until PUBACK) */
    if (!tx_overflow && txlen >= 64u && bbrt_env_route(txbuf, txlen, NULL, &receiver) == BBRT_OK) {
        dst = receiver == BBRT_BROADCAST ? NULL : peer_name(receiver);
        if (receiver == BBRT_BROADCAST) snprintf(topic, sizeof(topic), "%s", T_BCAST_ME);
        else if (dst != NULL)
            snprintf(topic, sizeof(topic), "%s/%s/in/%s/%s", BBRT_MQTT_PREFIX, BBRT_DEPLOYMENT, dst, BBRT_NODE_NAME);
        if (receiver == BBRT_BROADCAST || dst != NULL) {
            esp_mqtt_client_publish(mqtt, topic, (const char *)txbuf, (int)txlen, 1, 0);
            mstats.sent++;
        }
    } else {
        mstats.oversize++;
    }
    txlen = 0;
    tx_overflow = 0u;
}

static int topic_is(const esp_mqtt_event_handle_t ev, const char *t) {
    return ev->topic_len == (int)strlen(t) && memcmp(ev->topic, t, (size_t)ev->topic_len) == 0;
}

static void on_mqtt(void *arg, esp_event_base_t base, int32_t id, void *data) {
    esp_mqtt_event_handle_t ev = (esp_mqtt_event_handle_t)data;
    const char *src;
    size_t pl, srclen;
    int64_t want;
    uint32_t sender = 0;
    (void)arg;
    (void)base;
    if (id == MQTT_EVENT_CONNECTED) {
        mstats.connects++;
        if (mstats.connects > 1u) {
            if (ev->session_present) mstats.session_resumed++;
            else {
                mstats.session_resets++;
                ESP_LOGW(TAG, "the broker had no session on reconnect: messages queued for this node were lost");
            }
        }
        /* subscribe before announcing: peers start sending on "up", and the broker queues only for
         * subscriptions that exist (the first session of a node has none) */
        esp_mqtt_client_subscribe(mqtt, T_INBOX, 1);
        esp_mqtt_client_subscribe(mqtt, T_BCAST, 1);
        esp_mqtt_client_subscribe(mqtt, T_CTL, 1);
        esp_mqtt_client_publish(mqtt, T_PRESENCE, "up", 2, 1, 1);
        if (!hello_sent) {
            hello_sent = 1u;
            bbrt_node_hello(&node, BBRT_NODE_NAME);
        }
    } else if (id == MQTT_EVENT_ERROR && ev->error_handle != NULL &&
               ev->error_handle->error_type == MQTT_ERROR_TYPE_CONNECTION_REFUSED) {
        /* wrong user name or password (CONNACK refused): say so; the client retries with back-off */
        ESP_LOGE(TAG, "the broker refused the connection (%d): check CONFIG_BBRT_MQTT_USERNAME/PASSWORD",
                 (int)ev->error_handle->connect_return_code);
    } else if (id == MQTT_EVENT_DATA && ev->current_data_offset == 0 && ev->data_len == ev->total_data_len) {
        if (topic_is(ev, T_CTL)) return; /* fleet control ("stop", "retry"): a device keeps serving */
        pl = strlen(T_INBOX_PREFIX);
        if (ev->topic_len > (int)pl && memcmp(ev->topic, T_INBOX_PREFIX, pl) == 0) {
            src = ev->topic + pl;
        } else {
            pl = strlen(T_BCAST_PREFIX);
            if (ev->topic_len <= (int)pl || memcmp(ev->topic, T_BCAST_PREFIX, pl) != 0) return;
            src = ev->topic + pl;
        }
        srclen = (size_t)ev->topic_len - pl;
        if (srclen == strlen(BBRT_NODE_NAME) && memcmp(src, BBRT_NODE_NAME, srclen) == 0) return; /* own */
        /* validation first: the header's sender must be the node the topic names (the ACL pins who may
         * write that topic), and the envelope must fit the aligned receive buffer */
        want = peer_id(src, srclen);
        if (want < 0 || ev->data_len < 0 ||
        bbrt_env_route((const uint8_t *)ev->data, (size_t)ev->data_len, &sender, NULL) != BBRT_OK ||
        sender != (uint32_t)want) {
            mstats.spoofed++;
            return;
        }
        if ((size_t)ev->data_len > sizeof(rxbuf)) {
            mstats.oversize++;
            return;
        }
        mstats.received++;
        /* envelopes must be 8-byte aligned for in-place decoding: copy into the rx buffer */
        memcpy(rxbuf, ev->data, (size_t)ev->data_len);
        (void)bbrt_node_handle(&node, (const uint8_t *)rxbuf, (size_t)ev->data_len);
    }
}

static void start_mqtt(void) {
    wifi_init_config_t wcfg = WIFI_INIT_CONFIG_DEFAULT();
    wifi_config_t sta = {0};
    esp_mqtt_client_config_t mcfg = {0};
    ESP_ERROR_CHECK(esp_netif_init());
    ESP_ERROR_CHECK(esp_event_loop_create_default());
    esp_netif_create_default_wifi_sta();
    ESP_ERROR_CHECK(esp_wifi_init(&wcfg));
    strncpy((char *)sta.sta.ssid, CONFIG_BBRT_WIFI_SSID, sizeof(sta.sta.ssid) - 1);
    strncpy((char *)sta.sta.password, CONFIG_BBRT_WIFI_PASSWORD, sizeof(sta.sta.password) - 1);
    ESP_ERROR_CHECK(esp_wifi_set_mode(WIFI_MODE_STA));
    ESP_ERROR_CHECK(esp_wifi_set_config(WIFI_IF_STA, &sta));
    ESP_ERROR_CHECK(esp_wifi_start());
    ESP_ERROR_CHECK(esp_wifi_connect());
    mcfg.broker.address.uri = CONFIG_BBRT_MQTT_URI;
#if CONFIG_BBRT_MQTT_TLS_BUNDLE
    mcfg.broker.verification.crt_bundle_attach = esp_crt_bundle_attach;
#elif CONFIG_BBRT_MQTT_TLS_CA_PEM
    mcfg.broker.verification.certificate = ca_pem_start;
#endif
    /* the broker's ACL and use_username_as_clientid pin identity: user = client id = node name */
    if (CONFIG_BBRT_MQTT_USERNAME[0] != '\0') {
        mcfg.credentials.username = CONFIG_BBRT_MQTT_USERNAME;
        mcfg.credentials.authentication.password = CONFIG_BBRT_MQTT_PASSWORD;
    }
    mcfg.credentials.client_id = BBRT_NODE_NAME;
    /* persistent session: the broker queues QoS-1 envelopes for this node while it is away */
    mcfg.session.disable_clean_session = true;
    mcfg.session.keepalive = CONFIG_BBRT_MQTT_KEEPALIVE;
    /* the last will: the broker publishes retained "down" when this node vanishes */
    mcfg.session.last_will.topic = T_PRESENCE;
    mcfg.session.last_will.msg = "down";
    mcfg.session.last_will.msg_len = 4;
    mcfg.session.last_will.qos = 1;
    mcfg.session.last_will.retain = 1;
    mcfg.buffer.size = (int)BBRT_MAX_ENVELOPE + 256; /* one whole envelope per MQTT_EVENT_DATA */
    mqtt = esp_mqtt_client_init(&mcfg);
    esp_mqtt_client_register_event(mqtt, ESP_EVENT_ANY_ID, on_mqtt, NULL);
    esp_mqtt_client_start(mqtt);
}
#else
/* one link frame: tensors arrive in fragments written straight into the arena (streaming receive) */
static uint64_t rxbuf[(BBRT_RX_FRAME_SIZE + 7u) / 8u];
/* transmit ring: one largest envelope (the next output waits for the ACKs) */
static uint64_t txbuf[(BBRT_MAX_ENVELOPE + 7u) / 8u];
static bbrt_link_t link_state;

#define BBRT_LINK_UART CONFIG_BBRT_UART_NUM
#include "uart_link.h" /* put, now_ms, read_wait: the link on the UART (shared with learn_main.c) */

static uint32_t next_epoch(void *ctx) {
    (void)ctx;
    return bump_epoch();
}
#endif

void app_main(void) {
    const esp_partition_t *part;
    const void *map = NULL;
    esp_partition_mmap_handle_t handle;
    const uint8_t *prog;
    size_t size;
    bbrt_status_t st;
#if CONFIG_IDF_TARGET_LINUX
    if (port_linux_init() != 0) {
        ESP_LOGE(TAG, "linux target: set BBRT_FLASH (the flash image) and BBRT_UART (a tty)");
        return;
    }
#endif
    part = esp_partition_find_first(ESP_PARTITION_TYPE_DATA, BBRT_PROGRAM_SUBTYPE, "bbrt");
    if (part == NULL || esp_partition_mmap(part, 0, part->size, ESP_PARTITION_MMAP_DATA, &map, &handle) != ESP_OK) {
        ESP_LOGE(TAG, "no bbrt data partition: flash the program with `bb-edge flash --program-only`");
        return;
    }
    prog = (const uint8_t *)map;
    size = bbrt_blob_size(prog, part->size);
    open_store();
#if CONFIG_BBRT_TRANSPORT_MQTT
    st = bbrt_node_init(&node, prog, size, (uint8_t *)arena, sizeof(arena), (uint8_t *)rxbuf,
                        BBRT_RX_BUFFER_SIZE, put, NULL);
    if (st != BBRT_OK) {
        ESP_LOGE(TAG, "program refused: %s", bbrt_status_name(st));
        return;
    }
    node.unframed = 1u;
    start_mqtt();
    for (;;) vTaskDelay(pdMS_TO_TICKS(1000));
#else
    ESP_ERROR_CHECK(uart_driver_install(CONFIG_BBRT_UART_NUM, 4096, 4096, 0, NULL, 0));
    {
        uart_config_t cfg = {.baud_rate = CONFIG_BBRT_UART_BAUD, .data_bits = UART_DATA_8_BITS,
                             .parity = UART_PARITY_DISABLE, .stop_bits = UART_STOP_BITS_1,
                             .flow_ctrl = UART_HW_FLOWCTRL_DISABLE};
        ESP_ERROR_CHECK(uart_param_config(CONFIG_BBRT_UART_NUM, &cfg));
    }
    st = bbrt_node_init(&node, prog, size, (uint8_t *)arena, sizeof(arena), (uint8_t *)rxbuf,
                        BBRT_RX_FRAME_SIZE, put, NULL);
    if (st != BBRT_OK) {
        ESP_LOGE(TAG, "program refused: %s", bbrt_status_name(st));
        return;
    }
    {
        /* no NVS: epoch 1 (peers then see EpochRegressed or a repeat, never a silent reuse) */
        uint32_t epoch = bump_epoch();
        (void)bbrt_node_link_attach(&node, &link_state, (uint8_t *)txbuf, sizeof(txbuf), NULL, 0u,
                                    epoch ? epoch : 1u, node_name, now_ms, read_wait, NULL);
        bbrt_node_epoch_source(&node, next_epoch);
    }
    for (;;) {
        uint8_t buf[256];
        size_t n = read_wait(NULL, buf, sizeof(buf), 10u);
        if (n > 0u) bbrt_node_feed(&node, buf, n);
        else bbrt_node_poll(&node);
    }
#endif
}
