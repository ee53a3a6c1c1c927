/* cmd_sass: `ptxtutor sass` — what ptxas made of a kernel: its SASS grouped by PTX line, and the instruction mix per kernel and per `// @region`. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hash.h"
#include "base/json.h"
#include "base/util.h"
#include "cli/cli.h"
#include "course/ptx.h"
#include "course/sass_record.h"
#include "course/sass_tools.h"
#include "exec/sass.h"
#include "model/devices.h"

typedef struct {
	const char *name; /* NULL: the whole kernel */
	sass_counts c;
} scope;

static int count_scopes(const sass_kernel *k, const ptx_regions *rs, scope *out)
{
	int n = 0;
	out[n].name = NULL;
	sass_count(k, 0, 0, &out[n++].c);
	for (int i = 0; i < rs->n; i++) {
		out[n].name = rs->r[i].name;
		sass_count(k, rs->r[i].first + 1, rs->r[i].last + 1, &out[n++].c);
	}
	return n;
}

/* The PTX text of 1-based line, trimmed, into buf. */
static const char *ptx_line_text(const char *text, int line, char *buf, size_t len)
{
	const char *p = text;
	for (int i = 1; i < line && p; i++)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	if (!p || line < 1)
		return "";
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

static void print_text(const sass_kernel *k, const char *text, const scope *sc, int nsc, int counts_only)
{
	/* A recorded copy says so before anything else: it was not compiled here. */
	if (k->recorded_date[0]) {
		char label[400];
		sass_record_label(k, label, sizeof label);
		printf("%s\n", label);
	}
	printf("%s on %s, compiled by %s, read by %s (%s): %d registers, %d B stack, %d B spilled\n", k->entry,
	       k->arch, k->compiler, k->disassembler, k->tools, k->regs, k->stack,
	       k->spill_stores < 0 ? -1 : k->spill_stores + k->spill_loads);
	if (!counts_only) {
		if (!k->has_lines)
			printf("(no line information: nvdisasm -g gives it, cuobjdump does not)\n");
		const sass_instr **o = sass_by_line(k);
		int cur = -1, *lo, *hi;
		sass_loops_new(k, &lo, &hi);
		for (int i = 0; i < k->n; i++) {
			char buf[256], note[160];
			if (o[i]->line != cur) {
				cur = o[i]->line;
				if (cur > 0)
					printf("\n%5d  %s\n", cur, ptx_line_text(text, cur, buf, sizeof buf));
				else
					printf("\n       (no PTX line)\n");
			}
			if (sass_control_note(k, lo, hi, (int)(o[i] - k->ins), note, sizeof note))
				printf("         /*%04x*/ %-44s  [%s]\n", o[i]->addr, o[i]->text, note);
			else
				printf("         /*%04x*/ %s\n", o[i]->addr, o[i]->text);
		}
		free(o), free(lo), free(hi);
		printf("\n");
	}
	printf("%-16s %6s", "counts", "total");
	for (int j = 0; j < SASS_NKINDS; j++)
		if (sc[0].c.kind[j])
			printf(" %7s", sass_kind_name((sass_kind)j));
	printf("\n");
	for (int i = 0; i < nsc; i++) {
		char name[PTX_REGION_NAME + 2];
		snprintf(name, sizeof name, "%s%s", sc[i].name ? "@" : "", sc[i].name ? sc[i].name : "kernel");
		printf("%-16s %6d", name, sc[i].c.total);
		for (int j = 0; j < SASS_NKINDS; j++)
			if (sc[0].c.kind[j])
				printf(" %7d", sc[i].c.kind[j]);
		printf("\n");
	}
}

static void counts_json(json_writer *w, const sass_counts *c)
{
	json_obj(w, "counts");
	json_int(w, "total", c->total);
	for (int j = 0; j < SASS_NKINDS; j++)
		json_int(w, sass_kind_key((sass_kind)j), c->kind[j]);
	json_end(w);
}

static void print_json(const sass_kernel *k, const char *text, const scope *sc, int nsc, const ptx_regions *rs,
		       int counts_only)
{
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_str(&w, "entry", k->entry);
	json_str(&w, "arch", k->arch);
	json_str(&w, "tools", k->tools);
	json_str(&w, "compiler", k->compiler);
	json_str(&w, "disassembler", k->disassembler);
	json_bool(&w, "recorded", k->recorded_date[0] != '\0');
	if (k->recorded_date[0]) {
		json_str(&w, "recorded_date", k->recorded_date);
		json_str(&w, "recorded_by", k->recorded_by);
	}
	json_int(&w, "registers", k->regs);
	json_int(&w, "stack", k->stack);
	json_int(&w, "spill_stores", k->spill_stores);
	json_int(&w, "spill_loads", k->spill_loads);
	json_bool(&w, "line_info", k->has_lines);
	counts_json(&w, &sc[0].c);
	json_arr(&w, "regions");
	for (int i = 1; i < nsc; i++) {
		json_obj(&w, NULL);
		json_str(&w, "name", sc[i].name);
		json_int(&w, "first", rs->r[i - 1].first + 1);
		json_int(&w, "last", rs->r[i - 1].last + 1);
		counts_json(&w, &sc[i].c);
		json_end(&w);
	}
	json_end(&w);
	if (!counts_only) {
		json_arr(&w, "lines");
		const sass_instr **o = sass_by_line(k);
		for (int i = 0; i < k->n;) {
			char buf[256];
			int line = o[i]->line;
			json_obj(&w, NULL);
			json_int(&w, "line", line);
			json_str(&w, "ptx", ptx_line_text(text, line, buf, sizeof buf));
			json_arr(&w, "sass");
			for (; i < k->n && o[i]->line == line; i++)
				json_str(&w, NULL, o[i]->text);
			json_end(&w);
			json_end(&w);
		}
		free(o);
		json_end(&w);
		/* The reverse: every instruction in the machine's order, with its PTX line. */
		json_arr(&w, "instructions");
		int *lo, *hi;
		sass_loops_new(k, &lo, &hi);
		for (int i = 0; i < k->n; i++) {
			char note[160];
			json_obj(&w, NULL);
			json_int(&w, "addr", (long long)k->ins[i].addr);
			json_int(&w, "line", k->ins[i].line);
			json_str(&w, "sass", k->ins[i].text);
			if (k->ins[i].has_ctl) {
				sass_control_note(k, lo, hi, i, note, sizeof note);
				json_str(&w, "control", note);
			}
			json_end(&w);
		}
		free(lo), free(hi);
		json_end(&w);
	}
	json_end(&w);
	json_finish(&w);
}

/* The rows of the measured-data file: one per scope and figure
 * (course/sass.h's row words), tab-separated in the file's columns; a
 * region's zero is left out where the kernel's own row is zero. */
static void print_rows(const sass_kernel *k, const scope *sc, int nsc, int lesson, const char *how)
{
	char date[16], tools[128];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
	/* A recorded copy's figures are as old as the recording. */
	if (k->recorded_date[0])
		util_strlcpy(date, k->recorded_date, sizeof date);
	snprintf(tools, sizeof tools, "%s + %s", k->compiler, k->disassembler);
	for (int i = 0; i < nsc; i++) {
		char key[PTX_REGION_NAME + 8];
		sass_scope_key(sc[i].name, key, sizeof key);
		int kernel_only;
		const char *unit, *word;
		for (int j = 0; (word = sass_row_word(j, &kernel_only, &unit)) != NULL; j++) {
			int v, whole;
			if ((kernel_only && sc[i].name) || sass_figure(k, &sc[i].c, !sc[i].name, word, &v) < 0)
				continue;
			/* What the whole kernel has none of, no region has: its row says it. */
			if (sc[i].name && sass_figure(k, &sc[0].c, 1, word, &whole) == 0 && whole == 0)
				continue;
			printf("%s\t%s\t%s\tptxtutor sass %d --rows%s\t%d\t0\tsass.%s.%s\t%d\t%s\n", k->gpu, tools, date,
			       lesson, how, lesson, key, word, v, unit);
		}
	}
}

typedef enum { BY_AUTO, BY_JIT, BY_PTXAS } sass_by;

typedef struct {
	const char *lesson, *ptx, *entry, *arch, *gpu, *record;
	int json, counts_only, rows;
	int by; /* a sass_by */
} sass_opts;

static int cmd_sass(const cli_command *self, int argc, char **argv);

/* --arch as ptxas names a target: sm_ and two or three digits, perhaps an a
 * or f after them (sm_90a); whether this ptxas knows it, ptxas says. */
static int check_arch(const char *s, char *why, size_t len)
{
	size_t digits = strncmp(s, "sm_", 3) ? 0 : strspn(s + 3, "0123456789");
	const char *rest = s + 3 + digits;
	if ((digits == 2 || digits == 3) && s[3] != '0' && (!*rest || (strchr("af", *rest) && !rest[1])))
		return 0;
	snprintf(why, len, "a target as ptxas names it: sm_ and two or three digits (sm_80, sm_90a)");
	return -1;
}

const cli_command cli_cmd_sass = {
	.name = "sass",
	.synopsis = {"sass LESSON [--jit|--ptxas] [--arch sm_XY] [--gpu NAME] [--counts|--rows|--record FILE] [--json]",
		     "sass --ptx FILE --entry NAME [--jit|--ptxas] [--arch sm_XY] [--counts] [--json]"},
	.summary = "what the compiler made of a kernel: SASS by PTX line, counts",
	.about = "Compiles the kernel with a `.loc` line before every PTX instruction (in a temporary\n"
		 "copy: the file is not changed): with the GPU's own JIT when there is a GPU (the code\n"
		 "`run` runs: a module load's cubin from the JIT's cache; through cuLink, other code, where\n"
		 "that cache cannot be had: docs/tui.md), else with ptxas for the modelled GPU's\n"
		 "architecture. Disassembles\n"
		 "the cubin with nvdisasm -g (or cuobjdump -sass, which has no line information) and\n"
		 "prints the SASS under the PTX line it came from, then the counts: every instruction,\n"
		 "FFMA, LDS and LDS.128, LDG, LDGSTS, HMMA, HGMMA, BAR, LDL/STL (spills) and .reuse, for\n"
		 "the kernel and for each `// @region` of its PTX; registers and stack from the\n"
		 "compiler's -v lines. LESSON is a number (3) or an id (smem). Without the toolkit, a\n"
		 "lesson's own kernel is shown from its recorded copy (assets/sass/NN.sass, made by\n"
		 "scripts/gpu-sass.sh --record), labelled as such, when the PTX has not changed since.\n",
	.opts = (const cli_opt[]){
		{.name = "ptx", .letter = 'p', .kind = CLI_STR, .off = offsetof(sass_opts, ptx), .arg = "FILE",
		 .help = "any PTX file instead of a lesson's, with --entry NAME"},
		{.name = "entry", .letter = 'e', .kind = CLI_STR, .off = offsetof(sass_opts, entry), .arg = "NAME",
		 .help = "its entry"},
		{.name = "arch", .letter = 'a', .kind = CLI_NAME, .off = offsetof(sass_opts, arch), .arg = "sm_XY",
		 .check = check_arch,
		 .help = "the target for ptxas (default: the GPU's, sm_90a where the PTX targets it)"},
		{.name = "gpu", .letter = 'g', .kind = CLI_STR, .off = offsetof(sass_opts, gpu), .arg = "NAME",
		 .help = "the GPU whose architecture ptxas compiles for: one from `ptxtutor gpus`,\n"
			 "or live, this machine's (default: h100)"},
		{.name = "jit", .kind = CLI_FLAG, .off = offsetof(sass_opts, by), .value = BY_JIT,
		 .help = "the driver's JIT only (an error without a GPU)"},
		{.name = "ptxas", .kind = CLI_FLAG, .off = offsetof(sass_opts, by), .value = BY_PTXAS,
		 .help = "ptxas only, also where there is a GPU (--arch and --gpu imply it)"},
		{.name = "counts", .letter = 'c', .kind = CLI_FLAG, .off = offsetof(sass_opts, counts_only),
		 .help = "the counts only, not the SASS"},
		{.name = "rows", .kind = CLI_FLAG, .off = offsetof(sass_opts, rows),
		 .help = "the counts as rows of assets/measured-h100.tsv ({sass.*} placeholders)"},
		{.name = "record", .kind = CLI_STR, .off = offsetof(sass_opts, record), .arg = "FILE",
		 .help = "write the SASS (nvdisasm -g -hex; ptxas's unless --jit) as a recording to FILE:\n"
			 "a lesson's is assets/sass/NN.sass, a --ptx FILE's lies beside it (X.ptx: X.sass);\n"
			 "shown where the toolkit is missing, and what the stall model reads"},
		{.name = "json", .letter = 'j', .kind = CLI_FLAG, .off = offsetof(sass_opts, json),
		 .help = "print JSON (keys in docs/json.md)"},
		{0},
	},
	.notes = "Needs nvdisasm (or cuobjdump) and, without a GPU, ptxas from the CUDA toolkit, found\n"
		 "in $PATH, $CUDA_HOME/bin or /usr/local/cuda/bin; without them a lesson's recorded copy\n"
		 "is shown where one applies (same PTX, entry and architecture), else it says what is\n"
		 "needed and why no recording applies, and exits with 3. --ptx FILE always needs them.\n"
		 "Each tool is killed after PTXTUTOR_TOOL_TIMEOUT_S seconds (default 60); Ctrl-C stops\n"
		 "the work and removes its temporary files (exit 130).\n",
	.max_args = 1,
	.run = cmd_sass,
};

/* Returns -1 to go on, else the exit status. */
static int parse(const cli_command *self, int argc, char **argv, sass_opts *o)
{
	*o = (sass_opts){0};
	int nargs, rc = cli_parse(self, argc, argv, o, &nargs);
	if (rc >= 0)
		return rc;
	o->lesson = nargs ? argv[1] : NULL;
	if (!o->lesson == !o->ptx || (o->ptx && !o->entry)) {
		cli_error(self, "give a LESSON, or --ptx FILE --entry NAME");
		return 2;
	}
	if (o->by == BY_JIT && (o->arch || o->gpu)) {
		cli_error(self, "--jit compiles for the GPU here; --arch and --gpu are for ptxas");
		return 2;
	}
	if (o->rows && (!o->lesson || o->json)) {
		cli_error(self, "--rows is for a LESSON, without --json");
		return 2;
	}
	if (o->record && (o->json || o->rows || o->counts_only)) {
		cli_error(self, "--record is without --json, --rows or --counts");
		return 2;
	}
	/* A chosen architecture is ptxas's job: the JIT compiles for the GPU here;
	 * a recording is the modelled GPU's, made by ptxas, unless --jit asks for
	 * the code the GPU here runs. */
	if (o->arch || o->gpu || (o->record && o->by != BY_JIT))
		o->by = BY_PTXAS;
	return -1;
}

/* What to compile: the file (and, for a lesson, its path as the lesson names
 * it), the entry, the target and the GPU it stands for. */
typedef struct {
	char path[512], rel[256], entry[128], arch[16], gpu[64];
	int number; /* the lesson's; SASS_RECORD_FILE for --ptx */
} sass_target;

/* Fills t. Returns 0, or 2 after saying why. */
static int resolve(const sass_opts *o, sass_target *t)
{
	*t = (sass_target){0};
	if (o->ptx) {
		char err[512];
		char *text = util_read_file(o->ptx, NULL, err, sizeof err);
		if (!text) { /* said before any tool is looked for */
			cli_error(&cli_cmd_sass, "--ptx %s", err);
			return 2;
		}
		free(text);
		util_strlcpy(t->path, o->ptx, sizeof t->path);
		util_strlcpy(t->rel, o->ptx, sizeof t->rel);
		util_strlcpy(t->entry, o->entry, sizeof t->entry);
		t->number = SASS_RECORD_FILE;
	} else {
		course c = {0};
		cli_course(&c);
		const lesson *l = cli_lesson(&cli_cmd_sass, &c, o->lesson);
		if (!l || !l->ptx_path[0]) {
			if (l)
				cli_error(&cli_cmd_sass, "lesson %d has no kernel", l->number);
			course_free(&c);
			return 2;
		}
		util_path(t->path, sizeof t->path, l->ptx_path);
		util_strlcpy(t->rel, l->ptx_path, sizeof t->rel);
		util_strlcpy(t->entry, o->entry ? o->entry : l->entry, sizeof t->entry);
		t->number = l->number;
		course_free(&c);
	}
	static gpu_table tab; /* 32 rows of about 700 bytes */
	gpu_spec live;
	const gpu_spec *g = cli_gpu(&cli_cmd_sass, o->gpu, NULL, &tab, &live);
	if (!g)
		return 2;
	util_strlcpy(t->gpu, g->name, sizeof t->gpu);
	if (o->arch) {
		util_strlcpy(t->arch, o->arch, sizeof t->arch);
		return 0;
	}
	char *text = util_read_file(t->path, NULL, NULL, 0);
	sass_arch_for(text, g->cc_major, g->cc_minor, t->arch, sizeof t->arch);
	free(text);
	return 0;
}

/* --json where no SASS can be shown: the object still comes, saying why
 * (a lesson with no recording, "no recording of lesson 12 (...)"). */
static void print_json_none(const sass_target *t, const char *why, const char *err)
{
	json_writer w;
	json_begin(&w, stdout);
	json_obj(&w, NULL);
	json_str(&w, "entry", t->entry);
	json_str(&w, "arch", t->arch);
	json_bool(&w, "recorded", 0);
	json_str(&w, "no_recording", why);
	json_str(&w, "error", err);
	json_end(&w);
	json_finish(&w);
}

/* --record FILE: the lesson's SASS just made (k, and the disassembler's text)
 * written as a recording, and one line that says what was written. */
static int write_record(const sass_opts *o, const sass_target *t, sass_kernel *k, const char *disasm)
{
	if (!k->has_lines) {
		cli_error(&cli_cmd_sass, "--record needs nvdisasm -g (line information); cuobjdump has none");
		return 1;
	}
	sass_record r = {.lesson = t->number};
	char err[300];
	util_strlcpy(r.ptx, t->rel, sizeof r.ptx);
	if (sass_record_hash_file(t->path, &r.hash, err, sizeof err) < 0) {
		cli_error(&cli_cmd_sass, "%s", err);
		return 1;
	}
	time_t now = time(NULL);
	strftime(k->recorded_date, sizeof k->recorded_date, "%Y-%m-%d", gmtime(&now));
	char what[400], cmd[1024];
	if (t->number == SASS_RECORD_FILE)
		snprintf(what, sizeof what, "--ptx %.250s --entry %.127s", t->rel, t->entry);
	else
		snprintf(what, sizeof what, "%d", t->number);
	snprintf(cmd, sizeof cmd, "ptxtutor sass %s %s%s%s%s%s --record", what, o->by == BY_JIT ? "--jit" : "--ptxas",
		 o->gpu ? " --gpu " : "", o->gpu ? o->gpu : "", o->arch ? " --arch " : "", o->arch ? o->arch : "");
	util_strlcpy(k->recorded_by, cmd, sizeof k->recorded_by);
	char *text = sass_record_format(&r, k, disasm);
	FILE *f = fopen(o->record, "w");
	int ok = f && fputs(text, f) >= 0;
	ok = f && fclose(f) == 0 && ok;
	free(text);
	if (!ok) {
		cli_error(&cli_cmd_sass, "cannot write %s", cli_arg(o->record));
		return 1;
	}
	char hex[17];
	hash_hex(r.hash, hex);
	printf("%s: %d instructions, %d registers, %s, %s + %s, %s %s\n", o->record, k->n, k->regs, k->arch,
	       k->compiler, k->disassembler, t->rel, hex);
	return 0;
}

/* The chain's policy for the options (exec/sass.h): --jit the JIT alone,
 * --ptxas (and --arch, --gpu, --record without --jit) ptxas alone; a
 * recording (a lesson's, or the one beside --ptx FILE) does not stand in for
 * --jit, and is never made from a recording. */
static exec_sass_policy policy(const sass_opts *o)
{
	exec_sass_policy p = {.allow_jit = o->by != BY_PTXAS, .allow_ptxas = o->by != BY_JIT};
	p.allow_recorded = !o->record && o->by != BY_JIT;
	p.why_not_recorded = o->record ? NULL : EXEC_SASS_NOREC_JIT;
	return p;
}

/* The SASS of t into out: the GPU's JIT, ptxas, or (no toolkit) a recording,
 * in a child that a Ctrl-C stops (its temporary folder removed). Returns 0,
 * or the exit status after saying why. */
static int compile(const sass_opts *o, const sass_target *t, exec_sass_out *out)
{
	exec_sass_target et = {.lesson = t->number};
	util_strlcpy(et.path, t->path, sizeof et.path);
	util_strlcpy(et.entry, t->entry, sizeof et.entry);
	util_strlcpy(et.arch, t->arch, sizeof et.arch);
	util_strlcpy(et.gpu, t->gpu, sizeof et.gpu);
	exec_sass_policy p = policy(o);
	exec_sass_wait(&et, &p, out);
	if (out->note[0])
		cli_error(&cli_cmd_sass, "%s", out->note);
	switch (out->status) {
	case 0:
		return 0;
	case SASS_CANCELLED:
		cli_error(&cli_cmd_sass, "interrupted");
		return 130;
	case SASS_NO_GPU:
		cli_error(&cli_cmd_sass, "--jit: %s", out->err);
		return 1;
	default:
		if (out->status == SASS_MISSING && o->json)
			print_json_none(t, out->why_not_recorded, out->err);
		cli_error(&cli_cmd_sass, "%s", out->err);
		return out->status == SASS_MISSING ? 3 : 1;
	}
}

static int cmd_sass(const cli_command *self, int argc, char **argv)
{
	sass_opts o;
	int rc = parse(self, argc, argv, &o);
	if (rc >= 0)
		return rc;
	sass_target t;
	if ((rc = resolve(&o, &t)) != 0)
		return rc;
	exec_sass_out out;
	if ((rc = compile(&o, &t, &out)) != 0) {
		exec_sass_out_free(&out);
		return rc;
	}
	sass_kernel k = out.k;
	if (o.record) {
		rc = write_record(&o, &t, &k, out.disasm);
		exec_sass_out_free(&out);
		return rc;
	}
	free(out.disasm);
	char *text = util_read_file(t.path, NULL, NULL, 0);
	ptx_regions rs;
	ptx_regions_scan(text ? text : "", &rs);
	scope *sc = xcalloc((size_t)rs.n + 1, sizeof *sc);
	int nsc = count_scopes(&k, &rs, sc);
	if (o.rows)
		print_rows(&k, sc, nsc, t.number, o.by == BY_PTXAS ? " --ptxas" : o.by == BY_JIT ? " --jit" : "");
	else if (o.json)
		print_json(&k, text ? text : "", sc, nsc, &rs, o.counts_only);
	else
		print_text(&k, text ? text : "", sc, nsc, o.counts_only);
	free(sc);
	free(text);
	sass_kernel_free(&k);
	return 0;
}
