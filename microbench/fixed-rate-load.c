/*
 * Open-loop, fixed-rate HTTP/1.1 load generator for microbench/cpu-at-rate.
 *
 * Paces GET requests at a fixed total rate over N keep-alive connections (no pipelining: a connection sends its
 * next request once its previous response is complete and the next request's intended time has come). Each
 * connection has its own schedule, the connections' schedules interleaved evenly, so the total rate is fixed.
 * Latency is measured from a request's intended send time, not from when it was actually sent, so a stalled
 * server is charged for every request it delayed (coordinated omission is accounted for, as in wrk2).
 *
 * Over the measured window (after a warm-up) it also reads the server's CPU time, utime + stime from
 * /proc/<pid>/stat, and prints the CPU per request completed in that window. Latencies are those of the
 * responses completed in the window; if the server falls behind the rate, achieved is below rate and the
 * latencies show the backlog. Run it pinned to a CPU other than the server's.
 *
 * usage: fixed-rate-load PORT RATE CONNECTIONS WARMUP_SECONDS SECONDS SERVER_PID
 * prints one line: key=value pairs (rate, completed, achieved, p50_us, p90_us, p99_us, p999_us, max_us,
 * server_cpu_ms, cpu_us_per_req, unfinished, late_sends).
 *
 * Build: cc -O2 -o fixed-rate-load fixed-rate-load.c (Linux 5.11+ for epoll_pwait2).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTIONS 1024
#define RESPONSE_BUFFER_BYTES 16384
#define MAX_SAMPLES 20000000L

struct conn {
    int fd;
    int busy;
    uint64_t due;      /* intended send time of the next request, ns */
    uint64_t intended; /* intended send time of the request in flight, ns */
    size_t len;
    char buf[RESPONSE_BUFFER_BYTES];
};

static struct conn conns[MAX_CONNECTIONS];
static uint64_t *samples;
static long sample_count;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "fixed-rate-load: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
static long long cpu_ticks(long pid) {
    char path[64], line[4096];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        die(path);
    }
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    /* The command name may hold spaces and parentheses: fields count from after the last ')'. */
    char *p = strrchr(line, ')');
    if (p == NULL) {
        fprintf(stderr, "fixed-rate-load: cannot parse %s\n", path);
        exit(1);
    }
    long long utime = 0, stime = 0;
    /* After ')': field 3 (state) ... field 14 utime, field 15 stime. */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &utime, &stime) != 2) {
        fprintf(stderr, "fixed-rate-load: cannot parse %s\n", path);
        exit(1);
    }
    return utime + stime;
}

/* Length of the first complete response in buf, or 0 if it is not complete yet; -1 if it cannot be parsed. */
static long response_length(const char *buf, size_t len) {
    const char *end = memmem(buf, len, "\r\n\r\n", 4);
    if (end == NULL) {
        return len >= RESPONSE_BUFFER_BYTES ? -1 : 0;
    }
    size_t header = (size_t) (end - buf) + 4;
    long body = -1;
    for (const char *p = buf; p < end; p++) {
        if ((p == buf || p[-1] == '\n') && (size_t) (end - p) > 15 && strncasecmp(p, "content-length:", 15) == 0) {
            body = strtol(p + 15, NULL, 10);
            break;
        }
    }
    if (body < 0) {
        return -1;
    }
    return header + (size_t) body <= len ? (long) (header + (size_t) body) : 0;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}

static double percentile_us(double q) {
    if (sample_count == 0) {
        return 0;
    }
    long i = (long) (q * (double) (sample_count - 1) + 0.5);
    return (double) samples[i] / 1000.0;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: fixed-rate-load PORT RATE CONNECTIONS WARMUP_SECONDS SECONDS SERVER_PID\n");
        return 2;
    }
    int port = atoi(argv[1]);
    double rate = atof(argv[2]);
    int n = atoi(argv[3]);
    double warmup = atof(argv[4]);
    double seconds = atof(argv[5]);
    long pid = atol(argv[6]);
    if (port <= 0 || port > 65535 || rate <= 0 || n <= 0 || n > MAX_CONNECTIONS || warmup < 0 || seconds <= 0) {
        fprintf(stderr, "fixed-rate-load: bad arguments (connections 1-%d, rate and seconds > 0)\n",
                MAX_CONNECTIONS);
        return 2;
    }
    long max_samples = (long) (rate * seconds * 1.1) + 1000;
    if (max_samples > MAX_SAMPLES) {
        fprintf(stderr, "fixed-rate-load: rate x seconds too large (max %ld requests)\n", MAX_SAMPLES);
        return 2;
    }
    samples = malloc(sizeof(uint64_t) * (size_t) max_samples);
    if (samples == NULL) {
        die("malloc");
    }
    /* Timers fire within a nanosecond of their deadline rather than the default 50 us slack. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

    char request[256];
    int request_len = snprintf(request, sizeof request, "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", port);

    int ep = epoll_create1(0);
    if (ep < 0) {
        die("epoll_create1");
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < n; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) {
            die("socket");
        }
        if (connect(fd, (struct sockaddr *) &addr, sizeof addr) < 0) {
            die("connect");
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t) i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
            die("epoll_ctl");
        }
        conns[i].fd = fd;
    }

    uint64_t interval = (uint64_t) ((double) n * 1e9 / rate);
    uint64_t start = now_ns() + 1000000;
    for (int i = 0; i < n; i++) {
        conns[i].due = start + (uint64_t) ((double) i * 1e9 / rate);
    }
    uint64_t measure_start = start + (uint64_t) (warmup * 1e9);
    uint64_t measure_end = measure_start + (uint64_t) (seconds * 1e9);
    long long ticks_start = -1, ticks_end = -1;
    long late_sends = 0;
    struct epoll_event events[MAX_CONNECTIONS];

    for (;;) {
        uint64_t now = now_ns();
        if (ticks_start < 0 && now >= measure_start) {
            ticks_start = cpu_ticks(pid);
        }
        if (now >= measure_end) {
            ticks_end = cpu_ticks(pid);
            break;
        }
        uint64_t next = measure_end;
        for (int i = 0; i < n; i++) {
            struct conn *c = &conns[i];
            if (c->busy) {
                continue;
            }
            if (c->due <= now) {
                if (c->due >= measure_start && now - c->due > interval) {
                    late_sends++;
                }
                ssize_t w = write(c->fd, request, (size_t) request_len);
                if (w != request_len) {
                    die("write (short writes of a small request are not expected)");
                }
                c->busy = 1;
                c->intended = c->due;
                c->due += interval;
            } else if (c->due < next) {
                next = c->due;
            }
        }
        struct timespec timeout = {0, 0};
        uint64_t after = now_ns();
        if (next > after) {
            uint64_t wait = next - after;
            timeout.tv_sec = (time_t) (wait / 1000000000ull);
            timeout.tv_nsec = (long) (wait % 1000000000ull);
        }
        int ready = epoll_pwait2(ep, events, n, &timeout, NULL);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            die("epoll_pwait2");
        }
        for (int e = 0; e < ready; e++) {
            struct conn *c = &conns[events[e].data.u32];
            ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN) {
                    continue;
                }
                fprintf(stderr, "fixed-rate-load: the server closed a connection (%s)\n",
                        r == 0 ? "end of stream" : strerror(errno));
                return 1;
            }
            c->len += (size_t) r;
            for (;;) {
                long whole = response_length(c->buf, c->len);
                if (whole < 0) {
                    fprintf(stderr, "fixed-rate-load: cannot parse a response (no Content-Length or too long)\n");
                    return 1;
                }
                if (whole == 0) {
                    break;
                }
                if (!c->busy) {
                    fprintf(stderr, "fixed-rate-load: a response arrived with no request in flight\n");
                    return 1;
                }
                uint64_t done = now_ns();
                /* Every response completed in the window counts, whenever it was due: CPU per request is the
                 * server's work over what it served, and a backlog shows as latency, not as missing samples. */
                if (done >= measure_start && done < measure_end && sample_count < max_samples) {
                    samples[sample_count++] = done - c->intended;
                }
                c->busy = 0;
                memmove(c->buf, c->buf + whole, c->len - (size_t) whole);
                c->len -= (size_t) whole;
            }
        }
    }
    long unfinished = 0;
    for (int i = 0; i < n; i++) {
        if (conns[i].busy) {
            unfinished++;
        }
    }
    qsort(samples, (size_t) sample_count, sizeof(uint64_t), cmp_u64);
    double cpu_ms = (double) (ticks_end - ticks_start) * 1000.0 / (double) sysconf(_SC_CLK_TCK);
    printf("rate=%.0f connections=%d seconds=%.0f completed=%ld achieved=%.1f p50_us=%.1f p90_us=%.1f p99_us=%.1f "
           "p999_us=%.1f max_us=%.1f server_cpu_ms=%.0f cpu_us_per_req=%.3f unfinished=%ld late_sends=%ld\n",
           rate, n, seconds, sample_count, (double) sample_count / seconds, percentile_us(0.50),
           percentile_us(0.90), percentile_us(0.99), percentile_us(0.999),
           sample_count ? (double) samples[sample_count - 1] / 1000.0 : 0.0, cpu_ms,
           sample_count ? cpu_ms * 1000.0 / (double) sample_count : 0.0, unfinished, late_sends);
    return 0;
}
