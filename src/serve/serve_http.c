/* fray serve's HTTP server (libmicrohttpd): the page at the table, that
 * one client cannot take down: every request is read within a
 * deadline (not an idle timeout: a client trickling bytes is cut all the
 * same; a new connection's request line within a shorter one), an address
 * holds its share of the connections, a share that shrinks as addresses
 * come (admit_connection), a --lan request
 * without the token is dropped as soon as its request line is read, the
 * work that computes runs on worker threads (serve_jobs.h) while the HTTP
 * threads keep answering, and every answer counts against one memory
 * budget (serve_handler.h). It binds 127.0.0.1 unless lan, which binds
 * every interface and puts a random token in every path. The command's
 * options and its terminal are src/cli/cmd_serve.c's. */
#define _DEFAULT_SOURCE /* IFF_UP (net/if.h) */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <microhttpd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include "serve_games.h"
#include "serve_handler.h"
#include "serve_http.h"
#include "serve_jobs.h"
#include "serve_qr.h"

#define SERVE_CONNECTIONS 64       /* the pool: at once, shared fairly between addresses (admit_connection) */
#define SERVE_SHARE_MIN 2          /* an address's share of the pool is never less */
#define SERVE_HARD_CONNECTIONS (2 * SERVE_CONNECTIONS) /* MHD's bound: the pool and the ones being refused or cut */
#define SERVE_LINE_S 3             /* a new connection's first request line within, from its connection */
#define SERVE_READ_S 10            /* a request read in full within, from its connection or its previous answer */
#define SERVE_BODY_RATE (64 << 10) /* and a second more for each 64 KiB of its body received, up to SERVE_SEND_S */
#define SERVE_SEND_S 60            /* an answer sent in full within */
#define SERVE_THREADS 4

/* A connection's phase, for its deadline. */
typedef enum conn_phase { PHASE_READING, PHASE_COMPUTING, PHASE_SENDING, PHASE_HELD } conn_phase;

/* One TCP connection (MHD's socket context), on the list the deadline
 * watch walks. */
typedef struct conn_state {
	int fd;
	char client[64];             /* its address, as text */
	struct timespec since;       /* when its phase began */
	conn_phase phase;
	bool line;                   /* the request line of the request being read came */
	size_t body;                 /* the bytes of its body received */
	unsigned served;             /* requests answered on it (more than 0: a keep-alive connection) */
	bool cut;                    /* shut: refused, cut at its deadline or made to yield; no longer counted */
	struct conn_state *prev, *next;
} conn_state;

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;
static conn_state *conns;

/* One request being read: its body, kept up to SERVE_MAX_BODY, and the
 * answer of its computing once a worker gave it. */
typedef struct upload {
	char *body;
	size_t len, max;             /* max: serve_max_body of its URL */
	size_t cap;                  /* body's allocation */
	bool too_big;
	bool computing;              /* a worker has it */
	bool suspended;              /* under compute_lock, as computed */
	bool computed;
	serve_reply done;
	struct MHD_Connection *con;
	/* a kept game's events request, held (holds_lock): until the game's
	 * version passes after, or until */
	bool holding, woken;
	char hold[40];
	long long after;
	char client[64];
	struct timespec until;
} upload;

/* Between a handler that suspends its connection and the worker that
 * resumes it: a connection is resumed only once it is suspended. */
static pthread_mutex_t compute_lock = PTHREAD_MUTEX_INITIALIZER;

/* *con_cls of a --lan request without the token: dropped. */
static char refused_marker;

static const char *const security_headers[][2] = {
	{"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'self'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"Cache-Control", "no-store"},
};

static void set_phase(conn_state *cs, conn_phase phase)
{
	if (!cs)
		return;
	pthread_mutex_lock(&conns_lock);
	cs->phase = phase;
	clock_gettime(CLOCK_MONOTONIC, &cs->since);
	pthread_mutex_unlock(&conns_lock);
}

static conn_state *state_of(struct MHD_Connection *con)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

static void unref_answer(void *cls)
{
	serve_answer_unref(cls);
}

static enum MHD_Result send_reply(struct MHD_Connection *con, serve_reply *r)
{
	struct MHD_Response *res;
	if (r->body) { /* counted against the budget for as long as it is sent */
		size_t len = r->len;
		r->shared = serve_answer_new(r->body, len);
		r->body = NULL;
		if (!r->shared) {
			r->status = 503;
			r->type = "application/json";
			r->bytes = (const unsigned char *)serve_budget_refusal();
			r->len = strlen((const char *)r->bytes);
		}
	}
	if (r->shared) {
		res = MHD_create_response_from_buffer_with_free_callback_cls(
			r->len, (void *)serve_answer_bytes(r->shared), unref_answer, r->shared);
		if (res)
			r->shared = NULL; /* the response holds the reference */
	} else {
		res = MHD_create_response_from_buffer(r->len, (void *)r->bytes, MHD_RESPMEM_PERSISTENT);
	}
	if (!res)
		return MHD_NO;
	MHD_add_response_header(res, "Content-Type", r->type);
	for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
		MHD_add_response_header(res, security_headers[i][0], security_headers[i][1]);
	if (r->status == 503) /* busy (a queue, a share, the memory budget): when to ask again, as the pool says */
		MHD_add_response_header(res, "Retry-After", "1");
	set_phase(state_of(con), PHASE_SENDING);
	enum MHD_Result ok = MHD_queue_response(con, r->status, res);
	MHD_destroy_response(res);
	return ok;
}

/* A worker's answer: kept for the handler, which the resume calls again
 * (or, when the work was done before its connection was suspended, which
 * sends it at once). */
static void run_done(void *ud, serve_reply *r)
{
	upload *up = ud;
	pthread_mutex_lock(&compute_lock);
	up->done = *r;
	up->computed = true;
	if (up->suspended)
		MHD_resume_connection(up->con);
	pthread_mutex_unlock(&compute_lock); /* up is not touched after: the handler may free it */
}

static bool computed(upload *up)
{
	pthread_mutex_lock(&compute_lock);
	bool done = up->computed;
	pthread_mutex_unlock(&compute_lock);
	return done;
}

/* After the worker took it: suspended until its answer, unless that came
 * already (true: send it now). */
static bool suspend_unless_done(struct MHD_Connection *con, upload *up)
{
	pthread_mutex_lock(&compute_lock);
	bool done = up->computed;
	if (!done) {
		MHD_suspend_connection(con);
		up->suspended = true;
	}
	pthread_mutex_unlock(&compute_lock);
	return done;
}

/* The body, kept within SERVE_MAX_BODY; past it, the rest is read and
 * dropped (a chunked body says its size only at its end) and the request
 * is answered 413 once it is all in. */
static bool keep_body(upload *up, const char *data, size_t size)
{
	if (up->too_big)
		return true;
	if (up->len + size > up->max) {
		up->too_big = true;
		free(up->body);
		up->body = NULL;
		up->len = up->cap = 0;
		return true;
	}
	if (up->len + size + 1 > up->cap) { /* doubled: a 1 MiB body in small reads is copied twice at most, not
					       * once a read (64 bodies at once held the HTTP threads past the deadline) */
		size_t cap = up->cap ? up->cap : 4096;
		while (cap < up->len + size + 1)
			cap *= 2;
		if (cap > up->max + 1)
			cap = up->max + 1;
		char *more = realloc(up->body, cap);
		if (!more)
			return false;
		up->body = more;
		up->cap = cap;
	}
	memcpy(up->body + up->len, data, size);
	up->len += size;
	return true;
}

/* ---- a kept game's events: long polling (serve_games.h) ----
 * A held request is suspended (no thread, no reading) until the game's
 * version passes the one its client has, or SERVE_HOLD_S; the server's
 * tick looks at every held game's version (its version file and its
 * file's identity: a change by fray table is seen too). At most
 * SERVE_HOLDS held, SERVE_HOLDS_PER_CLIENT an address, and a held
 * connection yields its place in the pool as an idle one does (its
 * client asks again): holding never starves the other requests. */

static pthread_mutex_t holds_lock = PTHREAD_MUTEX_INITIALIZER;
static upload *holds[SERVE_HOLDS];
static size_t nholds;
/* held requests suspended and not yet answered after their resume: MHD
 * aborts when stopped with a connection still suspended */
static size_t suspended_holds;

static bool held_woken(upload *up)
{
	pthread_mutex_lock(&holds_lock);
	bool woken = up->woken;
	pthread_mutex_unlock(&holds_lock);
	return woken;
}

/* Holds the request r says (true: suspended), or answers at once into r:
 * the version passed already, no such game, or no place to hold it. */
static bool hold(const serve_conf *conf, struct MHD_Connection *con, conn_state *cs, upload *up, serve_reply *r)
{
	const char *client = cs ? cs->client : "";
	pthread_mutex_lock(&holds_lock);
	unsigned mine = 0;
	for (size_t i = 0; i < nholds; i++)
		mine += !strcmp(holds[i]->client, client);
	long long now = serve_store_version_now(conf->games, r->hold);
	bool held = false;
	if (now < 0 || now != r->hold_after) {
		serve_games_event(conf->games, r->hold, r);
	} else if (nholds >= SERVE_HOLDS || mine >= SERVE_HOLDS_PER_CLIENT) {
		serve_reply_error(r, 503, nholds >= SERVE_HOLDS
				  ? "busy: 32 clients wait for a game's change; ask again soon"
				  : "busy: this address waits for 8 games' changes already; ask again soon");
	} else {
		up->holding = true;
		up->woken = false;
		snprintf(up->hold, sizeof up->hold, "%s", r->hold);
		snprintf(up->client, sizeof up->client, "%s", client);
		up->after = r->hold_after;
		clock_gettime(CLOCK_MONOTONIC, &up->until);
		up->until.tv_sec += SERVE_HOLD_S;
		MHD_suspend_connection(con);
		holds[nholds++] = up;
		suspended_holds++;
		held = true;
	}
	pthread_mutex_unlock(&holds_lock);
	if (held)
		set_phase(cs, PHASE_HELD);
	return held;
}

/* Resumes every held request whose game changed or whose time is up (all
 * of them when all is set: the server stops). */
static void wake_holds(const serve_conf *conf, bool all)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&holds_lock);
	for (size_t i = 0; i < nholds;) {
		upload *up = holds[i];
		bool late = now.tv_sec > up->until.tv_sec ||
			    (now.tv_sec == up->until.tv_sec && now.tv_nsec >= up->until.tv_nsec);
		if (all || late || serve_store_version_now(conf->games, up->hold) != up->after) {
			holds[i] = holds[--nholds];
			up->woken = true;
			MHD_resume_connection(up->con);
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&holds_lock);
}

/* The URL's %XX decoded as MHD does, but a %00 made a byte no path or
 * name takes (DEL) rather than the end of the string: "a%00b" is not the
 * game "a" (nor "x.html%00.js" the page x.html). */
static size_t unescape(void *cls, struct MHD_Connection *con, char *uri)
{
	(void)cls;
	(void)con;
	size_t n = MHD_http_unescape(uri);
	for (size_t i = 0; i < n; i++)
		if (!uri[i])
			uri[i] = 0x7f;
	return n;
}

/* MHD hands the path without its query, whose arguments it parsed: the
 * ones serve_handle reads (a kept game's version, an events request's
 * after) put back as url?after=A&version=V, into buf; url itself when
 * there are none (or they do not fit: then they are not given). */
static const char *query_back(struct MHD_Connection *con, const char *url, char *buf, size_t cap)
{
	static const char *const keys[] = {"after", "version"};
	size_t n = 0;
	for (size_t i = 0; i < 2; i++) {
		const char *v = MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, keys[i]);
		if (!v)
			continue;
		int w = snprintf(buf + n, cap - n, "%s%s%s=%.20s", n ? "" : url, n ? "&" : "?", keys[i], v);
		if (w < 0 || (size_t)w >= cap - n)
			return url;
		n += (size_t)w;
	}
	return n ? buf : url;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *con, const char *url, const char *method,
			      const char *version, const char *data, size_t *data_size, void **con_cls)
{
	(void)version;
	const serve_conf *conf = cls;
	if (*con_cls == &refused_marker)
		return MHD_NO;
	upload *up = *con_cls;
	if (!up) { /* the headers: the body, if any, comes in later calls */
		if (!(up = calloc(1, sizeof *up)))
			return MHD_NO;
		up->con = con;
		up->max = serve_max_body(conf, url);
		*con_cls = up;
		const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Content-Length");
		if (cl && strtoull(cl, NULL, 10) > up->max)
			up->too_big = true; /* said at once, the body never read */
		else
			return MHD_YES;
	}
	if (*data_size) {
		conn_state *cs = state_of(con);
		if (cs) {
			pthread_mutex_lock(&conns_lock);
			cs->body += *data_size;
			pthread_mutex_unlock(&conns_lock);
		}
		if (!keep_body(up, data, *data_size))
			return MHD_NO;
		*data_size = 0;
		return MHD_YES;
	}
	if (up->holding) { /* resumed: the game changed, or the hold ran out */
		if (!held_woken(up))
			return MHD_YES;
		up->holding = false;
		pthread_mutex_lock(&holds_lock);
		suspended_holds--;
		pthread_mutex_unlock(&holds_lock);
		serve_reply r;
		serve_games_event(conf->games, up->hold, &r);
		enum MHD_Result ok = send_reply(con, &r);
		serve_reply_free(&r);
		return ok;
	}
	if (up->computing) { /* resumed: the worker's answer */
		if (!computed(up))
			return MHD_YES;
		up->computing = false;
		enum MHD_Result ok = send_reply(con, &up->done);
		serve_reply_free(&up->done);
		return ok;
	}
	conn_state *cs = state_of(con);
	serve_reply r;
	char with_query[512];
	url = query_back(con, url, with_query, sizeof with_query);
	serve_handle(conf, cs ? cs->client : "", method, url,
		     MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Host"),
		     MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Content-Type"), up->body ? up->body : "",
		     up->len, up->too_big, &r);
	if (r.hold[0] && hold(conf, con, cs, up, &r))
		return MHD_YES; /* suspended until the game changes */
	if (r.compute) { /* off this thread: the connection waits, suspended */
		char *text = r.compute;
		r.compute = NULL;
		set_phase(cs, PHASE_COMPUTING);
		if (serve_runs_submit(conf->jobs, cs ? cs->client : "", text, &r, run_done, up, &r)) {
			up->computing = true;
			if (!suspend_unless_done(con, up))
				return MHD_YES;
			up->computing = false;
			enum MHD_Result ok = send_reply(con, &up->done);
			serve_reply_free(&up->done);
			return ok;
		} /* refused: r is the refusal, answered now */
	}
	enum MHD_Result ok = send_reply(con, &r);
	serve_reply_free(&r);
	return ok;
}

static void request_done(void *cls, struct MHD_Connection *con, void **con_cls, enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)why;
	upload *up = *con_cls;
	if (up && up != (void *)&refused_marker) {
		free(up->body);
		serve_reply_free(&up->done);
		free(up);
	}
	*con_cls = NULL;
	conn_state *cs = state_of(con);
	if (cs) { /* the next request's deadline starts; idle until its request line */
		pthread_mutex_lock(&conns_lock);
		cs->served++;
		cs->line = false;
		cs->body = 0;
		pthread_mutex_unlock(&conns_lock);
	}
	set_phase(cs, PHASE_READING);
}

/* An answer written straight on a connection nothing was sent on yet (MHD
 * sends only after a request), then the connection shut: MHD closes it. */
static void answer_and_shut(int fd, const char *answer, size_t len)
{
	if (fd < 0)
		return;
	(void)!send(fd, answer, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	shutdown(fd, SHUT_RDWR);
}

/* ---- the pool: who may hold a connection (issue 41, case 2) ----
 * An address may hold its share of the pool: SERVE_CONNECTIONS / (the
 * addresses holding connections, its own counted, + 1), SERVE_SHARE_MIN
 * at least. The share shrinks as addresses come (16 addresses holding 3
 * each leave 16 places), so a new address finds a place while the others
 * hold theirs; one address alone may hold half (three browsers on one
 * laptop, 6 connections each). A place is made before anyone is refused:
 * an idle keep-alive connection yields (its browser opens another when it
 * needs one), and when the pool is full an address under its share takes
 * a place from one over its share (one not yet computing or answering).
 * Counted by the connections' list, under conns_lock; cut ones no more. */

/* How a connection may yield: 0 idle after an answer, 1 no request line
 * yet, 2 reading a request; -1 never (computing, answering, or cut). */
static int yield_rank(const conn_state *cs)
{
	if (!cs->cut && cs->phase == PHASE_HELD)
		return 0; /* a held events request: its client asks again */
	if (cs->cut || cs->phase != PHASE_READING)
		return -1;
	return cs->line ? 2 : cs->served ? 0 : 1;
}

static unsigned held_by(const char *client)
{
	unsigned n = 0;
	for (const conn_state *cs = conns; cs; cs = cs->next)
		n += !cs->cut && !strcmp(cs->client, client);
	return n;
}

/* The addresses holding a connection, client's counted even if it holds none. */
static unsigned addresses_with(const char *client)
{
	unsigned n = 0;
	for (const conn_state *cs = conns; cs; cs = cs->next) {
		if (cs->cut || !strcmp(cs->client, client))
			continue;
		bool first = true; /* the first live one of its address on the list */
		for (const conn_state *o = conns; o != cs && first; o = o->next)
			first = o->cut || strcmp(o->client, cs->client) != 0;
		n += first;
	}
	return n + 1;
}

static unsigned share_of(unsigned addresses)
{
	unsigned share = SERVE_CONNECTIONS / (addresses + 1);
	return share < SERVE_SHARE_MIN ? SERVE_SHARE_MIN : share;
}

/* The connection to shut so that client's new one (it holds mine) has a
 * place, NULL if none may yield: over its share, one of its own idle ones;
 * else (the pool full) an idle one of any address, or failing that one of
 * an address over its share or holding two more than client (so that past
 * 32 addresses, the shares at their least, a newcomer still finds one),
 * the least far along first, then the address holding most, then the
 * oldest. */
static conn_state *yielding(const char *client, unsigned mine, unsigned share)
{
	bool over_share = mine >= share;
	conn_state *best = NULL;
	int best_rank = 3;
	unsigned best_held = 0;
	for (conn_state *cs = conns; cs; cs = cs->next) {
		int rank = yield_rank(cs);
		bool own = !strcmp(cs->client, client);
		if (rank < 0 || (over_share && (!own || rank > 0)) || (!over_share && own))
			continue;
		unsigned held = held_by(cs->client);
		if (rank > 0 && held <= share && held < mine + 2)
			continue; /* within its share, and no more than client's: only an idle one yields */
		if (rank < best_rank || (rank == best_rank && (held > best_held || (held == best_held &&
			(cs->since.tv_sec < best->since.tv_sec || (cs->since.tv_sec == best->since.tv_sec &&
								   cs->since.tv_nsec < best->since.tv_nsec)))))) {
			best = cs;
			best_rank = rank;
			best_held = held;
		}
	}
	return best;
}

/* Whether cs (not yet on the list) may hold a connection, a place made
 * for it if need be. Under conns_lock. */
static bool admit_connection(const conn_state *cs)
{
	unsigned total = 0;
	for (const conn_state *o = conns; o; o = o->next)
		total += !o->cut;
	unsigned mine = held_by(cs->client), share = share_of(addresses_with(cs->client));
	if (mine < share && total < SERVE_CONNECTIONS)
		return true;
	conn_state *v = yielding(cs->client, mine, share);
	if (!v)
		return false;
	shutdown(v->fd, SHUT_RDWR);
	v->cut = true;
	return true;
}

#define POOL_REFUSAL "{\"error\": \"busy: this address holds its share of the connections; ask again soon\"}\n"
static const char pool_refusal[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
				   "Connection: close\r\nRetry-After: 1\r\nContent-Length: 83\r\n\r\n" POOL_REFUSAL;
_Static_assert(sizeof POOL_REFUSAL - 1 == 83, "the pool's refusal's Content-Length");

static void connection_seen(void *cls, struct MHD_Connection *con, void **socket_context,
			    enum MHD_ConnectionNotificationCode what)
{
	(void)cls;
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		conn_state *cs = calloc(1, sizeof *cs);
		if (!cs)
			return;
		const union MHD_ConnectionInfo *fd = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ad = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		cs->fd = fd ? fd->connect_fd : -1;
		const struct sockaddr *sa = ad ? ad->client_addr : NULL;
		if (sa && sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, cs->client, sizeof cs->client);
		else if (sa && sa->sa_family == AF_INET6) { /* an IPv4 client of the dual-stack socket as IPv4 */
			const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
			if (IN6_IS_ADDR_V4MAPPED(a6))
				inet_ntop(AF_INET, &a6->s6_addr[12], cs->client, sizeof cs->client);
			else
				inet_ntop(AF_INET6, a6, cs->client, sizeof cs->client);
		}
		clock_gettime(CLOCK_MONOTONIC, &cs->since);
		pthread_mutex_lock(&conns_lock);
		if (!admit_connection(cs)) { /* on the list all the same: MHD tells when it is closed */
			answer_and_shut(cs->fd, pool_refusal, sizeof pool_refusal - 1);
			cs->cut = true;
		}
		cs->next = conns;
		if (conns)
			conns->prev = cs;
		conns = cs;
		pthread_mutex_unlock(&conns_lock);
		*socket_context = cs;
	} else if (*socket_context) { /* closed: called before its socket is */
		conn_state *cs = *socket_context;
		pthread_mutex_lock(&conns_lock);
		if (cs->prev)
			cs->prev->next = cs->next;
		else
			conns = cs->next;
		if (cs->next)
			cs->next->prev = cs->prev;
		pthread_mutex_unlock(&conns_lock);
		free(cs);
		*socket_context = NULL;
	}
}

/* --lan: a request line without the token is answered 403 at once and its
 * connection dropped, before a byte of its headers is waited for. */
static void *request_line(void *cls, const char *uri, struct MHD_Connection *con)
{
	const serve_conf *conf = cls;
	conn_state *cs = state_of(con);
	bool cut = false;
	if (cs) {
		pthread_mutex_lock(&conns_lock);
		cs->line = true; /* no longer idle: it does not yield, and the request's own deadline holds */
		cut = cs->cut;
		pthread_mutex_unlock(&conns_lock);
	}
	if (cut) /* refused, or made to yield: nothing more is read */
		return &refused_marker;
	if (!conf->any_host || serve_path_allowed(conf, uri))
		return NULL;
#define TOKEN_REFUSAL "{\"error\": \"a token is needed\"}\n"
	static const char refusal[] = "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n"
				      "Connection: close\r\nContent-Length: 31\r\n\r\n" TOKEN_REFUSAL;
	_Static_assert(sizeof TOKEN_REFUSAL - 1 == 31, "the refusal's Content-Length");
	const union MHD_ConnectionInfo *fd = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (fd) /* nothing else was sent on it: MHD sends only after a request */
		answer_and_shut(fd->connect_fd, refusal, sizeof refusal - 1);
	return &refused_marker;
}

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
	return (double)(now->tv_sec - t->tv_sec) + (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

/* Every connection past its phase's deadline is cut (its socket shut; MHD
 * then closes it). A computing one waits on its own budget. */
static void cut_late_connections(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&conns_lock);
	for (conn_state *cs = conns; cs; cs = cs->next) {
		/* a new connection's request line comes at once from a browser: one
		 * that holds its place without it (under --lan, without the token it
		 * would have to show) is cut soon */
		double limit = cs->phase == PHASE_SENDING ? SERVE_SEND_S
			       : cs->phase == PHASE_HELD ? SERVE_HOLD_S + SERVE_READ_S
			       : cs->phase != PHASE_READING ? 0
			       : !cs->line && !cs->served ? SERVE_LINE_S : SERVE_READ_S;
		/* a body coming at SERVE_BODY_RATE or more earns its time (a loaded
		 * machine delivers 64 bodies of 1 MiB slowly); a trickle earns none */
		if (cs->phase == PHASE_READING && cs->line) {
			limit += (double)cs->body / SERVE_BODY_RATE;
			limit = limit > SERVE_SEND_S ? SERVE_SEND_S : limit;
		}
		if (limit > 0 && !cs->cut && cs->fd >= 0 && seconds_since(&cs->since, &now) > limit) {
			shutdown(cs->fd, SHUT_RDWR);
			cs->cut = true;
		}
	}
	pthread_mutex_unlock(&conns_lock);
}

struct serve_http {
	serve_conf conf;             /* the daemon's: it lives as long as the server */
	struct MHD_Daemon *daemon;
	unsigned port;
	bool ipv6;                   /* listening on IPv6 too (--lan, where the system has it) */
	serve_url urls[SERVE_URLS_MAX];
	size_t nurls;
	char *qr_svg;                /* conf.qr_svg's */
};

/* ---- where the server is: its URLs (--lan: one per address) ---- */

/* Whether name carries a default route (/proc/net/route, Linux's table
 * of IPv4 routes: destination and mask 00000000). Reading it sends nothing. */
static bool default_route_on(const char *name)
{
	FILE *f = fopen("/proc/net/route", "r");
	if (!f)
		return false;
	char line[256], iface[64];
	unsigned long dest, gateway, flags, mask;
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = sscanf(line, "%63s %lx %lx %lx %*d %*d %*d %lx", iface, &dest, &gateway, &flags, &mask) == 5 &&
			dest == 0 && mask == 0 && (flags & 1) /* RTF_UP */ && !strcmp(iface, name);
	fclose(f);
	return found;
}

/* An address's URL into u; false when it is none to print (not IPv4 or
 * IPv6, IPv6 not listened on, or link-local IPv6). */
static bool url_of(const serve_http *s, const struct ifaddrs *ifa, serve_url *u)
{
	char host[INET6_ADDRSTRLEN + 2] = "";
	const struct sockaddr *sa = ifa->ifa_addr;
	if (sa->sa_family == AF_INET) {
		const struct in_addr *a = &((const struct sockaddr_in *)sa)->sin_addr;
		inet_ntop(AF_INET, a, host, sizeof host);
		u->loopback = (ntohl(a->s_addr) >> 24) == 127;
	} else if (sa->sa_family == AF_INET6 && s->ipv6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (IN6_IS_ADDR_LINKLOCAL(a) || IN6_IS_ADDR_LOOPBACK(a))
			return false; /* ::1: 127.0.0.1 says it already */
		host[0] = '[';
		inet_ntop(AF_INET6, a, host + 1, sizeof host - 2);
		strcat(host, "]");
		u->loopback = false;
	} else {
		return false;
	}
	snprintf(u->iface, sizeof u->iface, "%s", ifa->ifa_name);
	snprintf(u->url, sizeof u->url, "http://%s:%u%s", host, s->port, s->conf.prefix);
	return true;
}

/* The order the URLs are printed in: the one to share first (IPv4 on
 * the default route's interface, then other IPv4, then IPv6: a shorter
 * URL and the one a phone on the same Wi-Fi surely has), loopback last. */
static int url_rank(const serve_url *u)
{
	if (u->loopback)
		return 4;
	return (strchr(u->url, '[') ? 2 : 0) + !default_route_on(u->iface);
}

/* Every address of every interface up, ranked (stable: the system's order
 * within a rank); 127.0.0.1 alone when there is no lan or no getifaddrs. */
static void find_urls(serve_http *s, bool lan)
{
	s->nurls = 0;
	struct ifaddrs *all = NULL;
	if (lan && getifaddrs(&all) == 0) {
		int rank[SERVE_URLS_MAX];
		for (const struct ifaddrs *ifa = all; ifa && s->nurls < SERVE_URLS_MAX - 1; ifa = ifa->ifa_next) {
			serve_url u;
			if (!ifa->ifa_addr || !(ifa->ifa_flags & IFF_UP) || !url_of(s, ifa, &u) || u.loopback)
				continue;
			int r = url_rank(&u);
			size_t at = s->nurls++;
			for (; at > 0 && rank[at - 1] > r; at--) { /* insertion, stable */
				s->urls[at] = s->urls[at - 1];
				rank[at] = rank[at - 1];
			}
			s->urls[at] = u;
			rank[at] = r;
		}
		freeifaddrs(all);
	}
	/* loopback last, in the slot the loop kept for it; made apart and then
	 * copied: formatted in place, one member of s was written from another
	 * (conf.prefix) through an index the compiler could not bound (-Wrestrict) */
	serve_url lo = {.loopback = true};
	snprintf(lo.iface, sizeof lo.iface, "lo");
	snprintf(lo.url, sizeof lo.url, "http://127.0.0.1:%u%s", s->port, s->conf.prefix);
	s->urls[s->nurls++] = lo;
}

size_t serve_http_urls(const serve_http *s, const serve_url **urls)
{
	*urls = s->urls;
	return s->nurls;
}

/* Whether the system has IPv6 sockets at all (a kernel may have it off). */
static bool has_ipv6(void)
{
	int fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The daemon on addr, its flags and MHD's options the same whatever the
 * address (more_flags: MHD_USE_DUAL_STACK for --lan's IPv6 socket). */
static struct MHD_Daemon *start_daemon(serve_http *s, const struct sockaddr *addr, unsigned more_flags)
{
	serve_conf *conf = &s->conf;
	return MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME | more_flags,
		0, NULL, NULL, answer, conf, MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_THREAD_POOL_SIZE,
		(unsigned)SERVE_THREADS, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_HARD_CONNECTIONS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)SERVE_SEND_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128u << 10),
		MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL, MHD_OPTION_NOTIFY_CONNECTION, connection_seen, NULL,
		MHD_OPTION_URI_LOG_CALLBACK, request_line, conf, MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
		MHD_OPTION_END);
}

/* url's QR code as SVG, titled with it (malloc'd; NULL: out of memory). */
static char *qr_of(const char *url)
{
	serve_qr q;
	if (!serve_qr_encode(url, &q))
		return NULL;
	char *svg = serve_qr_svg(&q, url);
	serve_qr_free(&q);
	return svg;
}

/* --lan: the URLs, and the QR code of the first (the one to share) for
 * the page; false when the memory is out. */
static bool share(serve_http *s)
{
	find_urls(s, true);
	s->qr_svg = qr_of(s->urls[0].url);
	s->conf.qr_svg = s->qr_svg;
	s->conf.share_url = s->urls[0].url;
	s->conf.qr_of = qr_of;
	return s->qr_svg != NULL;
}

serve_http *serve_http_start(const serve_http_opts *o, char *err, size_t errlen)
{
	serve_memory_set_budget(o->memory_mib ? o->memory_mib : (unsigned)(SERVE_MEMORY_BUDGET >> 20));
	(void)serve_budget_refusal(); /* formatted now, before the threads */
	serve_http *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	serve_conf *conf = &s->conf;
	snprintf(conf->prefix, sizeof conf->prefix, "/");
	conf->any_host = o->lan;
	if (o->lan) {
		char token[33];
		if (!serve_random_hex(token)) {
			snprintf(err, errlen, "no random token: the kernel gave no random bytes");
			free(s);
			return NULL;
		}
		snprintf(conf->prefix, sizeof conf->prefix, "/t/%s/", token);
	}
	if (o->games && !(conf->games = serve_store_new(o->games))) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	if (!(conf->jobs = serve_jobs_new(0, SERVE_RUN_WORKERS))) {
		serve_store_free(conf->games);
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	serve_runs_set_wait(conf->jobs, o->run_wait_s);
	if (o->lan && has_ipv6()) { /* a phone may have only an IPv6 address on the network */
		struct sockaddr_in6 any6 = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)o->port),
					    .sin6_addr = IN6ADDR_ANY_INIT};
		s->daemon = start_daemon(s, (struct sockaddr *)&any6, MHD_USE_DUAL_STACK);
		s->ipv6 = s->daemon != NULL;
	}
	if (!s->daemon) {
		struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port),
					   .sin_addr.s_addr = htonl(o->lan ? INADDR_ANY : INADDR_LOOPBACK)};
		s->daemon = start_daemon(s, (struct sockaddr *)&addr, 0);
	}
	if (!s->daemon) {
		serve_jobs_free(conf->jobs);
		serve_store_free(conf->games);
		free(s);
		snprintf(err, errlen, "cannot listen on port %u (in use?)", o->port);
		return NULL;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : o->port;
	if (!o->lan) { /* until now every Host was refused: none was accepted yet */
		snprintf(conf->hosts[0], sizeof conf->hosts[0], "127.0.0.1:%u", s->port);
		snprintf(conf->hosts[1], sizeof conf->hosts[1], "localhost:%u", s->port);
		conf->nhosts = 2;
		find_urls(s, false);
	} else if (!share(s)) { /* before the token is out: no request reads conf->qr_svg yet */
		serve_http_stop(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return s;
}

unsigned serve_http_port(const serve_http *s)
{
	return s->port;
}

const char *serve_http_prefix(const serve_http *s)
{
	return s->conf.prefix;
}

void serve_http_tick(serve_http *s)
{
	/* the connections' list is the daemon's callbacks', one per process */
	cut_late_connections();
	wake_holds(&s->conf, false);
	serve_runs_expire(s->conf.jobs);
}

void serve_http_stop(serve_http *s)
{
	if (!s)
		return;
	/* the workers first: every suspended connection gets its answer and
	 * is resumed before the daemon stops */
	serve_jobs_stop(s->conf.jobs);
	wake_holds(&s->conf, true);
	/* MHD takes a resumed connection off its suspended list in its own
	 * loop, and answers it: waited for (at most 5 s), as MHD aborts when
	 * stopped with one still suspended */
	for (int i = 0; i < 500; i++) {
		pthread_mutex_lock(&holds_lock);
		size_t left = suspended_holds;
		pthread_mutex_unlock(&holds_lock);
		if (!left)
			break;
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
	}
	MHD_stop_daemon(s->daemon);
	serve_jobs_free(s->conf.jobs);
	serve_store_free(s->conf.games);
	free(s->qr_svg);
	free(s);
}
