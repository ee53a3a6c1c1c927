/* sass_tools: find ptxas, nvdisasm and cuobjdump, run them on an instrumented copy of a PTX file in a private temporary directory, and hand their text to course/sass.c. */
#include "course/sass_tools.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/util.h"

const char *sass_missing_line(void)
{
	return "SASS needs ptxas and nvdisasm (or cuobjdump) from the CUDA toolkit: on Debian the "
	       "nvidia-cuda-toolkit package (non-free), elsewhere developer.nvidia.com/cuda-downloads "
	       "(set CUDA_HOME or PATH)";
}

/* Looks for name in each directory of a colon-separated list. */
static int find_in(const char *dirs, const char *name, char *path, size_t len)
{
	while (dirs && *dirs) {
		size_t n = strcspn(dirs, ":");
		if (n) {
			snprintf(path, len, "%.*s/%s", (int)n, dirs, name);
			if (access(path, X_OK) == 0)
				return 0;
		}
		dirs += n + (dirs[n] == ':');
	}
	return -1;
}

int sass_find_tool(const char *name, char *path, size_t len)
{
	const char *only = getenv("PTXTUTOR_CUDA_BIN");
	if (only)
		return find_in(only, name, path, len);
	if (find_in(getenv("PATH"), name, path, len) == 0)
		return 0;
	const char *home = getenv("CUDA_HOME");
	if (home && *home) {
		char dir[512];
		snprintf(dir, sizeof dir, "%s/bin", home);
		if (find_in(dir, name, path, len) == 0)
			return 0;
	}
	return find_in("/usr/local/cuda/bin", name, path, len);
}

void sass_arch_for(const char *ptx, int cc_major, int cc_minor, char *arch, size_t len)
{
	snprintf(arch, len, "sm_%d%d", cc_major, cc_minor);
	const char *t = ptx ? strstr(ptx, ".target") : NULL;
	if (!t)
		return;
	t += 7;
	while (*t == ' ' || *t == '\t')
		t++;
	size_t n = strlen(arch);
	if (!strncmp(t, arch, n) && t[n] == 'a' && !isalnum((unsigned char)t[n + 1]))
		snprintf(arch, len, "sm_%d%da", cc_major, cc_minor);
}

/* How long a tool may run before it is killed: ptxas takes seconds on the
 * longest lesson, so only a hung one meets this. PTXTUTOR_TOOL_TIMEOUT_S
 * sets it (tests, slow machines). */
#define SASS_TOOL_TIMEOUT_S 60.0

double sass_tool_timeout(void)
{
	const char *s = getenv("PTXTUTOR_TOOL_TIMEOUT_S");
	char *end;
	double v = s && *s ? strtod(s, &end) : 0;
	return s && *s && !*end && v > 0 && v <= 86400 ? v : SASS_TOOL_TIMEOUT_S;
}

/* Runs argv with stdout and stderr into the file out, killed past its
 * deadline; returns proc_wait's status (-1: could not start). */
static int run_tool(char *const argv[], const char *out)
{
	proc p;
	if (proc_spawn(&p, argv, out, sass_tool_timeout()) < 0)
		return -1;
	return proc_wait(&p);
}

/* Why a tool failed, in one line: killed at its deadline, not started, or
 * the first line it complained with. */
static void tool_failed(int status, const char *file, const char *tool, char *err, size_t errlen)
{
	if (status == PROC_TIMEOUT) {
		snprintf(err, errlen, "%s did not finish in %.0f s and was killed (PTXTUTOR_TOOL_TIMEOUT_S sets the limit)",
			 tool, sass_tool_timeout());
		return;
	}
	char *t = status == -1 ? NULL : util_read_file(file, NULL, NULL, 0);
	char *nl = t ? strchr(t, '\n') : NULL;
	if (nl)
		*nl = '\0';
	snprintf(err, errlen, "%s failed: %s", tool, t && *t ? t : status == -1 ? "could not start it" : "no message");
	free(t);
}

void sass_remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[1024];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			sass_remove_tree(p); /* never through a link: lstat */
		else
			unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

const char *sass_tool_version(const char *name)
{
	static struct {
		char name[16], v[32];
	} cache[4];
	static int n;
	for (int i = 0; i < n; i++)
		if (!strcmp(cache[i].name, name))
			return cache[i].v;
	char path[512], tmp[] = "/tmp/ptxtutor-version-XXXXXX", v[32] = "";
	int fd = mkstemp(tmp);
	if (fd >= 0 && sass_find_tool(name, path, sizeof path) == 0) {
		close(fd);
		char *argv[] = {path, "--version", NULL};
		char *t = run_tool(argv, tmp) == 0 ? util_read_file(tmp, NULL, NULL, 0) : NULL;
		/* "Cuda compilation tools, release 13.0, V13.0.88" */
		const char *r = t ? strstr(t, ", V") : NULL;
		if (r)
			snprintf(v, sizeof v, "%.*s", (int)strspn(r + 3, "0123456789."), r + 3);
		free(t);
	} else if (fd >= 0)
		close(fd);
	unlink(tmp);
	if (n < (int)(sizeof cache / sizeof cache[0])) {
		util_strlcpy(cache[n].name, name, sizeof cache[n].name);
		util_strlcpy(cache[n].v, v, sizeof cache[n].v);
		return cache[n++].v;
	}
	return "";
}

void sass_kernel_init(sass_kernel *k, const char *entry)
{
	*k = (sass_kernel){.regs = -1, .stack = -1, .spill_stores = -1, .spill_loads = -1};
	util_strlcpy(k->entry, entry, sizeof k->entry);
}

/* nvdisasm (with lines) or cuobjdump: 1 nvdisasm, 0 cuobjdump, -1 none. */
static int find_disasm(char *path, size_t len)
{
	if (sass_find_tool("nvdisasm", path, len) == 0)
		return 1;
	return sass_find_tool("cuobjdump", path, len) == 0 ? 0 : -1;
}

int sass_have_disasm(char *err, size_t errlen)
{
	char path[512];
	if (find_disasm(path, sizeof path) >= 0)
		return 1;
	snprintf(err, errlen, "%s", sass_missing_line());
	return 0;
}

int sass_job_start(sass_job *j, const char *ptx_path, char *err, size_t errlen)
{
	j->disasm = NULL;
	const char *tmp = getenv("TMPDIR");
	snprintf(j->dir, sizeof j->dir, "%s/ptxtutor-sass-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(j->dir)) {
		snprintf(err, errlen, "cannot make a temporary directory in %s", tmp && *tmp ? tmp : "/tmp");
		j->dir[0] = '\0';
		return SASS_FAILED;
	}
	snprintf(j->ptx, sizeof j->ptx, "%s/k.ptx", j->dir);
	snprintf(j->cubin, sizeof j->cubin, "%s/k.cubin", j->dir);
	char *text = util_read_file(ptx_path, NULL, err, errlen);
	if (!text) {
		sass_job_end(j);
		return SASS_FAILED;
	}
	/* The .file names the shown file, so the line info says where it came from. */
	char *inst = sass_instrument(text, ptx_path, NULL);
	free(text);
	int w = write_file(j->ptx, inst);
	free(inst);
	if (w < 0) {
		snprintf(err, errlen, "cannot write %s", j->ptx);
		sass_job_end(j);
		return SASS_FAILED;
	}
	return 0;
}

int sass_job_ptxas(sass_job *j, const char *arch, sass_kernel *k, char *err, size_t errlen)
{
	char ptxas[512], log[600], archopt[40];
	if (sass_find_tool("ptxas", ptxas, sizeof ptxas) < 0) {
		snprintf(err, errlen, "%s", sass_missing_line());
		return SASS_MISSING;
	}
	snprintf(log, sizeof log, "%s/ptxas.txt", j->dir);
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	char *cc[] = {ptxas, archopt, "-lineinfo", "-v", "-o", j->cubin, j->ptx, NULL};
	int st = run_tool(cc, log);
	if (st != 0) {
		tool_failed(st, log, "ptxas", err, errlen);
		return SASS_FAILED;
	}
	char *vlog = util_read_file(log, NULL, NULL, 0);
	if (vlog)
		sass_parse_ptxas_v(vlog, k->entry, k);
	free(vlog);
	util_strlcpy(k->arch, arch, sizeof k->arch);
	const char *v = sass_tool_version("ptxas");
	snprintf(k->compiler, sizeof k->compiler, "ptxas%s%s", *v ? " " : "", v);
	snprintf(k->tools, sizeof k->tools, "ptxas -arch=%s -lineinfo", arch);
	return 0;
}

int sass_job_disasm(sass_job *j, const char *entry, sass_kernel *k, char *err, size_t errlen)
{
	char dis[512], sass[600];
	int nv = find_disasm(dis, sizeof dis);
	if (nv < 0) {
		snprintf(err, errlen, "%s", sass_missing_line());
		return SASS_MISSING;
	}
	snprintf(sass, sizeof sass, "%s/sass.txt", j->dir);
	/* -hex: the encodings, whose control bits say which scoreboard each instruction waits on */
	char *nvd[] = {dis, "-g", "-hex", "-c", j->cubin, NULL}, *cuo[] = {dis, "-sass", j->cubin, NULL};
	int st = run_tool(nv ? nvd : cuo, sass);
	if (st != 0) {
		tool_failed(st, sass, nv ? "nvdisasm" : "cuobjdump", err, errlen);
		return SASS_FAILED;
	}
	char *out = util_read_file(sass, NULL, err, errlen);
	/* The parser starts the instruction list afresh but keeps what k knows. */
	int rc = out ? sass_parse_disasm(out, entry, k, err, errlen) : -1;
	free(j->disasm);
	j->disasm = out;
	const char *name = nv ? "nvdisasm" : "cuobjdump", *v = sass_tool_version(name);
	snprintf(k->disassembler, sizeof k->disassembler, "%s%s%s", name, *v ? " " : "", v);
	size_t n = strlen(k->tools);
	snprintf(k->tools + n, sizeof k->tools - n, "%s%s", n ? " + " : "", nv ? "nvdisasm -g -hex" : "cuobjdump -sass");
	return rc == 0 ? 0 : SASS_FAILED;
}

void sass_job_end(sass_job *j)
{
	if (j->dir[0])
		sass_remove_tree(j->dir);
	j->dir[0] = '\0';
	free(j->disasm);
	j->disasm = NULL;
}

int sass_build(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char *err,
	       size_t errlen)
{
	return sass_build_text(ptx_path, entry, arch, k, NULL, err, errlen);
}

int sass_build_text(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char **disasm,
		    char *err, size_t errlen)
{
	if (disasm)
		*disasm = NULL;
	sass_kernel_init(k, entry);
	/* Both tools first: a missing one is the one line, before any work. */
	char path[512];
	if (sass_find_tool("ptxas", path, sizeof path) < 0 || !sass_have_disasm(err, errlen)) {
		snprintf(err, errlen, "%s", sass_missing_line());
		return SASS_MISSING;
	}
	sass_job j;
	int rc = sass_job_start(&j, ptx_path, err, errlen);
	if (rc == 0)
		rc = sass_job_ptxas(&j, arch, k, err, errlen);
	if (rc == 0)
		rc = sass_job_disasm(&j, entry, k, err, errlen);
	if (rc == 0 && disasm)
		*disasm = j.disasm, j.disasm = NULL;
	sass_job_end(&j);
	return rc;
}
