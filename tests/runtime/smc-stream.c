// SPDX-License-Identifier: GPL-2.0-only
/*
 * smc-stream: an AF_SMC server and client for the smc workload of
 * make runtime (scripts/runtime/workloads/smc.sh), built statically into
 * the guest's initramfs.
 *
 *   smc-stream server PORT           accept connections for ever; a
 *                                    connection's first byte says what it
 *                                    is: 'P' echo, 'B' count until EOF and
 *                                    answer with the byte count
 *   smc-stream ping ADDR PORT N      N round trips of 64 bytes:
 *                                    "ping n=N avg_us=A p50_us=M p99_us=P"
 *   smc-stream bulk ADDR PORT MB     MB MiB sent, the server's count read
 *                                    back: "bulk bytes=B secs=S mbit=R"
 *   smc-stream ueid NAME             NAME added as a user EID (SMC-D v2
 *                                    needs one outside s390)
 *   smc-stream stats                 the SMC counters of this network
 *                                    namespace (generic netlink
 *                                    SMC_GEN_NETLINK, SMC_NETLINK_GET_STATS):
 *                                    "stats smcd_tx_bytes=.. smcd_rx_bytes=..
 *                                    smcd_conn=.. smcr_tx_bytes=.. hs_err=..
 *                                    fallback=CODE:COUNT,..." (the
 *                                    fallbacks' reason codes,
 *                                    SMC_NETLINK_GET_FBACK_STATS)
 *
 * The sockets are AF_SMC ones (SMCPROTO_SMC, IPv4 addresses): whether SMC
 * or its TCP fallback carried the data is what the counters tell
 * (smcd_tx_bytes grows only with data moved over an SMC-D device).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_SMC
#define AF_SMC 43
#endif
#define SMCPROTO_SMC 0
#define SMC_FAMILY "SMC_GEN_NETLINK"
#define SMC_CMD_GET_STATS 7		/* SMC_NETLINK_GET_STATS */
#define SMC_CMD_GET_FBACK_STATS 8	/* SMC_NETLINK_GET_FBACK_STATS */
#define SMC_CMD_ADD_UEID 10		/* SMC_NETLINK_ADD_UEID */
#define SMC_EID_ENTRY 1			/* SMC_NLA_EID_TABLE_ENTRY, string */
#define SMC_EID_LEN 32			/* SMC_MAX_EID_LEN */
#define SMC_GEN_STATS 7			/* nest */
#define SMC_GEN_FBACK_STATS 8		/* nest */
#define SMC_FBACK_RSN_CODE 4		/* u32 */
#define SMC_FBACK_RSN_CNT 5		/* u16 */
#define SMC_STATS_SMCD_TECH 1		/* nest */
#define SMC_STATS_SMCR_TECH 2		/* nest */
#define SMC_STATS_CLNT_HS_ERR 3
#define SMC_STATS_SRV_HS_ERR 4
#define SMC_T_CLNT_V1_SUCC 7
#define SMC_T_CLNT_V2_SUCC 8
#define SMC_T_SRV_V1_SUCC 9
#define SMC_T_SRV_V2_SUCC 10
#define SMC_T_RX_BYTES 16
#define SMC_T_TX_BYTES 17

static void die(const char *what)
{
	fprintf(stderr, "smc-stream: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void xwrite(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("write");
		p += r;
		n -= r;
	}
}

static int xread_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("read");
		if (r == 0)
			return 0;
		p += r;
		n -= r;
	}
	return 1;
}

static struct sockaddr_in addr_of(const char *ip, const char *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(atoi(port)) };

	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
		fprintf(stderr, "smc-stream: bad IPv4 address %s\n", ip);
		exit(2);
	}
	return a;
}

static int smc_socket(void)
{
	int fd = socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC);

	if (fd < 0)
		die("socket(AF_SMC)");
	return fd;
}

static void serve_one(int c)
{
	static char buf[1 << 16];
	char mode;
	uint64_t total = 0;
	ssize_t r;

	if (!xread_full(c, &mode, 1))
		return;
	while ((r = read(c, buf, sizeof(buf))) > 0) {
		if (mode == 'P')
			xwrite(c, buf, r);
		total += r;
	}
	if (mode == 'B')
		xwrite(c, &total, sizeof(total));
}

static __attribute__((noreturn)) void server(const char *port)
{
	struct sockaddr_in a = addr_of("0.0.0.0", port);
	int one = 1, fd = smc_socket();

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4))
		die("bind/listen");
	printf("server listening on %s\n", port);
	fflush(stdout);
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		serve_one(c);
		close(c);
	}
}

static int client(const char *ip, const char *port, char mode)
{
	struct sockaddr_in a = addr_of(ip, port);
	int fd = smc_socket();

	if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	xwrite(fd, &mode, 1);
	return fd;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static int ping(const char *ip, const char *port, int n)
{
	char buf[64];
	double *us = calloc(n, sizeof(*us)), sum = 0;
	int fd = client(ip, port, 'P'), i;

	if (!us || n < 1)
		return 2;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < n; i++) {
		double t0 = now();

		xwrite(fd, buf, sizeof(buf));
		if (!xread_full(fd, buf, sizeof(buf))) {
			fprintf(stderr, "smc-stream: server closed after %d round trips\n", i);
			return 1;
		}
		us[i] = (now() - t0) * 1e6;
		sum += us[i];
	}
	close(fd);
	qsort(us, n, sizeof(*us), cmp_double);
	printf("ping n=%d avg_us=%.0f p50_us=%.0f p99_us=%.0f\n", n, sum / n,
	       us[n / 2], us[(n * 99 + 99) / 100 - 1]);
	return 0;
}

static int bulk(const char *ip, const char *port, int mb)
{
	static char buf[1 << 16];
	uint64_t want = (uint64_t)mb << 20, sent = 0, got = 0;
	double t0 = now(), secs;
	int fd = client(ip, port, 'B');

	memset(buf, 0xa5, sizeof(buf));
	while (sent < want) {
		xwrite(fd, buf, sizeof(buf));
		sent += sizeof(buf);
	}
	shutdown(fd, SHUT_WR);
	if (!xread_full(fd, &got, sizeof(got)) || got != sent) {
		fprintf(stderr, "smc-stream: server counted %llu bytes of %llu\n",
			(unsigned long long)got, (unsigned long long)sent);
		return 1;
	}
	secs = now() - t0;
	close(fd);
	printf("bulk bytes=%llu secs=%.2f mbit=%.1f\n", (unsigned long long)sent, secs,
	       sent * 8 / secs / 1e6);
	return 0;
}

/* ---- the SMC counters over generic netlink ---- */

struct counters {
	uint64_t d_tx, d_rx, d_conn, r_tx, hs_err;
	char fback[256];		/* "code:count,..." of the fallbacks */
};

/* One generic netlink request; attr (if not NULL): attribute attr_type,
 * attr_len bytes of it. */
static int nl_request(int fd, uint16_t type, uint16_t flags, uint8_t cmd,
		      uint16_t attr_type, const char *attr, size_t attr_len)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char attrs[64];
	} req = { 0 };
	int len = NLMSG_LENGTH(GENL_HDRLEN);

	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST | flags;
	req.g.cmd = cmd;
	req.g.version = 1;
	if (attr) {
		struct nlattr *a = (struct nlattr *)((char *)&req + len);

		if (attr_len > sizeof(req.attrs) - NLA_HDRLEN)
			return -1;
		a->nla_type = attr_type;
		a->nla_len = NLA_HDRLEN + attr_len;
		memcpy((char *)a + NLA_HDRLEN, attr, attr_len);
		len += NLA_ALIGN(a->nla_len);
	}
	req.n.nlmsg_len = len;
	return send(fd, &req, len, 0) == len ? 0 : -1;
}

#define FOR_ATTR(a, start, len) \
	for (a = (struct nlattr *)(start); (char *)a + NLA_HDRLEN <= (char *)(start) + (len) && \
	     a->nla_len >= NLA_HDRLEN; a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))

static uint64_t u64_of(const struct nlattr *a)
{
	uint64_t v = 0;

	memcpy(&v, (const char *)a + NLA_HDRLEN,
	       a->nla_len - NLA_HDRLEN < 8 ? a->nla_len - NLA_HDRLEN : 8);
	return v;
}

static void tech(const struct nlattr *t, uint64_t *tx, uint64_t *rx, uint64_t *conn)
{
	const struct nlattr *a;

	FOR_ATTR(a, (const char *)t + NLA_HDRLEN, t->nla_len - NLA_HDRLEN) {
		int ty = a->nla_type & NLA_TYPE_MASK;

		if (ty == SMC_T_TX_BYTES)
			*tx = u64_of(a);
		else if (ty == SMC_T_RX_BYTES && rx)
			*rx = u64_of(a);
		else if (conn && (ty == SMC_T_CLNT_V1_SUCC || ty == SMC_T_CLNT_V2_SUCC ||
				  ty == SMC_T_SRV_V1_SUCC || ty == SMC_T_SRV_V2_SUCC))
			*conn += u64_of(a);
	}
}

static void parse_fback(const struct nlattr *s, struct counters *c)
{
	const struct nlattr *a;
	uint32_t code = 0;
	uint16_t cnt = 0;
	size_t n = strlen(c->fback);

	FOR_ATTR(a, (const char *)s + NLA_HDRLEN, s->nla_len - NLA_HDRLEN) {
		int ty = a->nla_type & NLA_TYPE_MASK;

		if (ty == SMC_FBACK_RSN_CODE)
			memcpy(&code, (const char *)a + NLA_HDRLEN, sizeof(code));
		else if (ty == SMC_FBACK_RSN_CNT)
			memcpy(&cnt, (const char *)a + NLA_HDRLEN, sizeof(cnt));
	}
	if (code && n < sizeof(c->fback) - 24)
		snprintf(c->fback + n, sizeof(c->fback) - n, "%s0x%08x:%u", n ? "," : "",
			 code, cnt);
}

static void parse_stats(const struct nlattr *s, struct counters *c)
{
	const struct nlattr *a;

	FOR_ATTR(a, (const char *)s + NLA_HDRLEN, s->nla_len - NLA_HDRLEN) {
		int ty = a->nla_type & NLA_TYPE_MASK;

		if (ty == SMC_STATS_SMCD_TECH)
			tech(a, &c->d_tx, &c->d_rx, &c->d_conn);
		else if (ty == SMC_STATS_SMCR_TECH)
			tech(a, &c->r_tx, NULL, NULL);
		else if (ty == SMC_STATS_CLNT_HS_ERR || ty == SMC_STATS_SRV_HS_ERR)
			c->hs_err += u64_of(a);
	}
}

/* Read replies until NLMSG_DONE (or one message without NLM_F_MULTI);
 * family: the id found (ctrl reply), else the SMC stats are parsed. */
static int nl_replies(int fd, int *family, struct counters *c)
{
	static char buf[1 << 16];

	for (;;) {
		int len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *n;

		if (len <= 0)
			return -1;
		for (n = (struct nlmsghdr *)buf; NLMSG_OK(n, len); n = NLMSG_NEXT(n, len)) {
			struct nlattr *a;
			int alen = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

			if (n->nlmsg_type == NLMSG_DONE)
				return 0;
			if (n->nlmsg_type == NLMSG_ERROR) {
				errno = -((struct nlmsgerr *)NLMSG_DATA(n))->error;
				return errno ? -1 : 0;
			}
			FOR_ATTR(a, (char *)NLMSG_DATA(n) + GENL_HDRLEN, alen) {
				if (family && a->nla_type == CTRL_ATTR_FAMILY_ID)
					*family = *(uint16_t *)((char *)a + NLA_HDRLEN);
				else if (c && (a->nla_type & NLA_TYPE_MASK) == SMC_GEN_STATS)
					parse_stats(a, c);
				else if (c && (a->nla_type & NLA_TYPE_MASK) == SMC_GEN_FBACK_STATS)
					parse_fback(a, c);
			}
			if (!(n->nlmsg_flags & NLM_F_MULTI))
				return 0;
		}
	}
}

/* A generic netlink socket and the SMC family's id. */
static int smc_family(int *fd)
{
	int family = -1;

	*fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (*fd < 0)
		die("socket(AF_NETLINK)");
	if (nl_request(*fd, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		       SMC_FAMILY, sizeof(SMC_FAMILY)) ||
	    nl_replies(*fd, &family, NULL) || family < 0)
		die("generic netlink family " SMC_FAMILY);
	return family;
}

/* SMC_NETLINK_ADD_UEID: a user EID, blank-padded to 32 characters. SMC-D
 * v2 (the loopback device is v2 only) needs an EID both ends share, and
 * outside s390 there is no system EID: without one the server declines
 * (SMC_CLC_DECL_NOUEID) and the connection falls back to TCP. */
static int ueid(const char *name)
{
	char e[SMC_EID_LEN + 1];
	int fd, family = smc_family(&fd);

	if (strlen(name) > SMC_EID_LEN)
		return 2;
	memset(e, ' ', SMC_EID_LEN);
	memcpy(e, name, strlen(name));
	e[SMC_EID_LEN] = 0;
	if (nl_request(fd, family, NLM_F_ACK, SMC_CMD_ADD_UEID, SMC_EID_ENTRY, e, sizeof(e)) ||
	    nl_replies(fd, NULL, NULL))
		die("SMC_NETLINK_ADD_UEID");
	printf("ueid %s added\n", name);
	return 0;
}

static int stats(void)
{
	struct counters c = { 0 };
	int fd, family = smc_family(&fd);

	if (nl_request(fd, family, NLM_F_DUMP, SMC_CMD_GET_STATS, 0, NULL, 0) ||
	    nl_replies(fd, NULL, &c))
		die("SMC_NETLINK_GET_STATS");
	if (nl_request(fd, family, NLM_F_DUMP, SMC_CMD_GET_FBACK_STATS, 0, NULL, 0) ||
	    nl_replies(fd, NULL, &c))
		die("SMC_NETLINK_GET_FBACK_STATS");
	printf("stats smcd_tx_bytes=%llu smcd_rx_bytes=%llu smcd_conn=%llu smcr_tx_bytes=%llu "
	       "hs_err=%llu fallback=%s\n", (unsigned long long)c.d_tx,
	       (unsigned long long)c.d_rx, (unsigned long long)c.d_conn,
	       (unsigned long long)c.r_tx, (unsigned long long)c.hs_err,
	       c.fback[0] ? c.fback : "none");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "server"))
		server(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "ping"))
		return ping(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "bulk"))
		return bulk(argv[2], argv[3], atoi(argv[4]));
	if (argc == 2 && !strcmp(argv[1], "stats"))
		return stats();
	if (argc == 3 && !strcmp(argv[1], "ueid"))
		return ueid(argv[2]);
	fprintf(stderr, "usage: smc-stream server PORT | ping ADDR PORT N | "
		"bulk ADDR PORT MB | stats | ueid NAME\n");
	return 2;
}
