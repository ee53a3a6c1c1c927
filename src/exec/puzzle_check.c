/* exec/puzzle_check: run a puzzle's kernel on the emulator at its sizes and judge each check from the counts of its regions. */
#include "exec/puzzle_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "emu/emu.h"
#include "run/launch.h"

/* What the runs at every size left: the first failure, the summed counts per region. */
typedef struct {
	char fail[512];                /* first fault, parse error or wrong result: "line L: ..." */
	int fail_line;
	char race[512];
	int race_line;
	int ran;                       /* sizes that ran to the end */
	emu_region regions[EMU_MAX_REGIONS];
	int nregions;
} runs;

/* A located problem as "line LINE: msg" (the student knows the file); the PTX line into *line. */
static void located(const run_error *e, char *dst, size_t len, int *line)
{
	*line = e->line;
	run_error_format_line(e, dst, len);
}

static void run_sizes(const puzzle *p, const char *path, runs *r, double *seconds)
{
	double end = 0;
	for (int s = 0; s < p->nsizes && !r->fail[0]; s++) {
		const long long *z = p->sizes[s];
		launch_ptx lp = {.ptx = path, .entry = p->entry, .grid = p->grid, .block = p->block, .smem = strcmp(p->smem, "0") ? p->smem : NULL,
				 .dtype = p->dtype, .M = z[0], .N = z[1], .K = z[2],
				 .args = p->args[0] ? p->args : NULL, .cluster = p->cluster[0] ? p->cluster : NULL,
				 .out = p->out[0] ? p->out : NULL, .bmajor = p->bmajor[0] ? p->bmajor : NULL};
		run_request rq;
		emu_result *res = xcalloc(1, sizeof *res);
		char err[300], msg[400];
		if (launch_request_for_ptx(&lp, &rq, err, sizeof err)) {
			snprintf(r->fail, sizeof r->fail, "the puzzle's launch: %s", err);
			free(res);
			return;
		}
		launch_target(&rq, RUN_BACKEND_EMU, RUN_KIND_RUN, NULL); /* the request's deadline, as every emulation */
		/* one deadline for the file's sizes together: the first request's, and
		 * what is left of it for each next one */
		if (s == 0)
			end = util_now() + rq.deadline_s;
		else
			rq.deadline_s = end - util_now() > 0.001 ? end - util_now() : 0.001;
		emu_options opt = {.deadline_s = rq.deadline_s};
		emu_error e = emu_run(&rq, &opt, res, NULL, 0);
		*seconds += res->seconds;
		if (e != EMU_OK) {
			located(&res->error, msg, sizeof msg, &r->fail_line);
			snprintf(r->fail, sizeof r->fail, "at %lldx%lldx%lld, %s", z[0], z[1], z[2], msg);
		} else {
			if (res->races && !r->race[0]) {
				located(&res->race, r->race, sizeof r->race, &r->race_line);
			}
			/* a race is no verification, as in every run's verdict: C came out right this once */
			if (res->verified == 1 && res->races && !r->fail[0]) {
				located(&res->race, msg, sizeof msg, &r->fail_line);
				snprintf(r->fail, sizeof r->fail, "at %lldx%lldx%lld, C is right but unordered: %s", z[0], z[1],
					 z[2], msg);
			} else if (res->verified != 1)
				snprintf(r->fail, sizeof r->fail, "at %lldx%lldx%lld, C is wrong: %s", z[0], z[1], z[2],
					 res->verify_msg[0] ? res->verify_msg : "a shared-memory race (see the race check)");
			for (int i = 0; i < res->nregions; i++) {
				if (r->ran == 0)
					r->regions[i] = res->regions[i];
				else if (i < r->nregions)
					emu_counts_add(&r->regions[i].c, &res->regions[i].c);
			}
			if (r->ran == 0)
				r->nregions = res->nregions;
			r->ran++;
		}
		free(res);
	}
}

static const emu_region *region(const runs *r, const char *name)
{
	for (int i = 0; i < r->nregions; i++)
		if (!strcmp(r->regions[i].name, name))
			return &r->regions[i];
	return NULL;
}

/* The first line in the region (1-based lines of its markers) whose text contains any of the words. */
static int first_line_with(const char *text, const emu_region *g, const char *const *words)
{
	int line = 1;
	for (const char *s = text; *s; line++) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (line > g->first_line && line < g->last_line)
			for (int w = 0; words[w]; w++) {
				const char *hit = strstr(s, words[w]);
				const char *cmt = strstr(s, "//");
				if (hit && hit < s + n && (!cmt || cmt > s + n || hit < cmt))
					return line;
			}
		s += n + (nl != NULL);
	}
	return g->first_line;
}

/* Instruction lines of the region whose opcode starts with op ("*": any); the first such line in *line. */
static int count_ops(const char *text, const emu_region *g, const char *op, int *first)
{
	int line = 1, n = 0;
	*first = 0;
	for (const char *s = text; *s; line++) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char buf[256];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), s);
		char *t = util_trim(buf);
		if (*t == '@') /* a guard: the opcode follows it */
			t += strcspn(t, " \t"), t = util_trim(t);
		/* an instruction: not blank, a comment, a directive, a brace or a label */
		int instr = *t && *t != '/' && *t != '.' && *t != '{' && *t != '}' && !(strchr(t, ':') && !strchr(t, ';'));
		if (line > g->first_line && line < g->last_line && instr && (!strcmp(op, "*") || !strncmp(t, op, strlen(op)))) {
			if (!n)
				*first = line;
			n++;
		}
		s += len + (nl != NULL);
	}
	return n;
}

static const char *const global_words[] = {"ld.global", "st.global", "cp.async.c", NULL};
static const char *const shared_words[] = {"ld.shared", "st.shared", "ldmatrix", NULL};
static const char *const tma_words[] = {"cp.async.bulk.tensor", NULL};

/* One region check: the measure, its line, pass or not, and the message. */
static void judge_region(const puzzle_check *c, const runs *r, const char *text, puzzle_verdict *v)
{
	const emu_region *g = region(r, c->region);
	if (!g) {
		/* the static count needs only the text, but the markers are scanned by the run */
		snprintf(v->msg, sizeof v->msg,
			 r->ran ? "the region @%s is gone: keep its '// @%s' and '// @end' lines around that code"
				: "not measured: the kernel did not run to its end",
			 c->region, c->region);
		return;
	}
	double got;
	char what[160];
	if (c->kind == PUZZLE_SECTORS) {
		const emu_counts *k = &g->c;
		unsigned long long rq = k->gld.requests + k->gst.requests + k->gcp.requests;
		unsigned long long sc = k->gld.sectors + k->gst.sectors + k->gcp.sectors;
		got = rq ? (double)sc / (double)rq : 0;
		v->line = first_line_with(text, g, global_words);
		snprintf(what, sizeof what, "touches %.1f sectors per request (at most %g)", got, c->limit);
		if (!rq)
			snprintf(what, sizeof what, "makes no global request at all");
	} else if (c->kind == PUZZLE_CONFLICTS) {
		const emu_counts *k = &g->c;
		got = (double)(k->sld.bank_conflicts + k->sst.bank_conflicts + k->sldsm.bank_conflicts);
		unsigned long long req = k->sld.requests + k->sst.requests + k->sldsm.requests;
		v->line = first_line_with(text, g, shared_words);
		snprintf(what, sizeof what, "has %.0f bank conflicts in %llu shared requests (at most %g)", got, req,
			 c->limit);
	} else if (c->kind == PUZZLE_TMA) {
		/* a multicast copy is read from L2 once and lands in every CTA of its mask */
		const emu_counts *k = &g->c;
		got = k->tma_smem_bytes ? (double)k->tma_l2_bytes / (double)k->tma_smem_bytes : 0;
		v->line = first_line_with(text, g, tma_words);
		snprintf(what, sizeof what, "reads %.2f bytes from L2 per byte its TMA copies land in shared memory (at most %g)",
			 got, c->limit);
		if (!k->tma_smem_bytes)
			snprintf(what, sizeof what, "lands no TMA copy in shared memory at all");
	} else {
		got = count_ops(text, g, c->op, &v->line);
		if (!v->line)
			v->line = g->first_line;
		snprintf(what, sizeof what, "has %.0f %s instructions (at most %g)", got,
			 strcmp(c->op, "*") ? c->op : "", c->limit);
	}
	v->pass = got <= c->limit && !((c->kind == PUZZLE_SECTORS || c->kind == PUZZLE_TMA) && got == 0);
	snprintf(v->msg, sizeof v->msg, "your @%s (line %d) %s%s%s", c->region, v->line, what,
		 v->pass || !c->why[0] ? "" : ": ", v->pass ? "" : c->why);
}

void puzzle_check_file(const puzzle *p, const char *path, puzzle_outcome *out)
{
	memset(out, 0, sizeof *out);
	runs *r = xcalloc(1, sizeof *r);
	char err[256];
	char *text = util_read_file(path, NULL, err, sizeof err);
	if (!text)
		snprintf(r->fail, sizeof r->fail, "%s", err);
	else
		run_sizes(p, path, r, &out->seconds);
	out->n = p->nchecks;
	out->solved = 1;
	for (int i = 0; i < p->nchecks; i++) {
		const puzzle_check *c = &p->checks[i];
		puzzle_verdict *v = &out->v[i];
		puzzle_check_describe(c, v->name, sizeof v->name);
		if (c->kind == PUZZLE_VERIFIED) {
			v->pass = !r->fail[0] && r->ran == p->nsizes;
			v->line = r->fail_line;
			if (v->pass)
				snprintf(v->msg, sizeof v->msg, "C is right at all %d sizes", p->nsizes);
			else
				snprintf(v->msg, sizeof v->msg, "%s%s%s", r->fail[0] ? r->fail : "a race left C unchecked",
					 c->why[0] ? " — " : "", c->why);
		} else if (c->kind == PUZZLE_RACE) {
			v->pass = !r->race[0] && r->ran > 0;
			v->line = r->race_line;
			snprintf(v->msg, sizeof v->msg, "%s%s%s",
				 r->race[0] ? r->race : r->ran ? "no race between warps" : "not measured: the kernel did not run",
				 r->race[0] && c->why[0] ? " — " : "", r->race[0] ? c->why : "");
		} else if (text) {
			judge_region(c, r, text, v);
		}
		out->solved &= v->pass;
	}
	free(text);
	free(r);
}
