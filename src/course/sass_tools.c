/* sass_tools: find ptxas, nvdisasm and cuobjdump, run them on an instrumented copy of a PTX file in a private temporary directory, and hand their text to course/sass.c. */
#include "course/sass_tools.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

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

/* Runs argv with stdout and stderr into the file out; returns the exit status (-1: could not start). */
static int run_tool(char *const argv[], const char *out)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The tool's first line of complaint, for a one-line error. */
static void first_lines(const char *file, const char *tool, char *err, size_t errlen)
{
	char *t = util_read_file(file, NULL, NULL, 0);
	char *nl = t ? strchr(t, '\n') : NULL;
	if (nl)
		*nl = '\0';
	snprintf(err, errlen, "%s failed: %s", tool, t && *t ? t : "no message");
	free(t);
}

/* Removes the temporary directory and what is in it (only our few files). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[800];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
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

/* In dir: the instrumented copy k.ptx, then k.cubin and the tools' outputs. */
static int build_in(const char *dir, const char *ptx_path, const char *entry, const char *arch, sass_kernel *k,
		    char *err, size_t errlen)
{
	char ptxas[512], dis[512], src[600], cubin[600], log[600], sass[600], archopt[40];
	int nv = sass_find_tool("nvdisasm", dis, sizeof dis) == 0;
	if (sass_find_tool("ptxas", ptxas, sizeof ptxas) < 0 || (!nv && sass_find_tool("cuobjdump", dis, sizeof dis) < 0)) {
		snprintf(err, errlen, "%s", sass_missing_line());
		return SASS_MISSING;
	}
	char *text = util_read_file(ptx_path, NULL, err, errlen);
	if (!text)
		return SASS_FAILED;
	/* The .file names the shown file, so the line info says where it came from. */
	char *inst = sass_instrument(text, ptx_path, NULL);
	free(text);
	snprintf(src, sizeof src, "%s/k.ptx", dir);
	snprintf(cubin, sizeof cubin, "%s/k.cubin", dir);
	snprintf(log, sizeof log, "%s/ptxas.txt", dir);
	snprintf(sass, sizeof sass, "%s/sass.txt", dir);
	int w = write_file(src, inst);
	free(inst);
	if (w < 0) {
		snprintf(err, errlen, "cannot write %s", src);
		return SASS_FAILED;
	}
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	char *cc[] = {ptxas, archopt, "-lineinfo", "-v", "-o", cubin, src, NULL};
	if (run_tool(cc, log) != 0) {
		first_lines(log, "ptxas", err, errlen);
		return SASS_FAILED;
	}
	char *dv[] = {dis, nv ? "-g" : "-sass", nv ? "-c" : cubin, nv ? cubin : NULL, NULL};
	if (run_tool(dv, sass) != 0) {
		first_lines(sass, nv ? "nvdisasm" : "cuobjdump", err, errlen);
		return SASS_FAILED;
	}
	char *out = util_read_file(sass, NULL, err, errlen);
	char *vlog = util_read_file(log, NULL, NULL, 0);
	int rc = out ? sass_parse_disasm(out, entry, k, err, errlen) : -1;
	if (rc == 0 && vlog)
		sass_parse_ptxas_v(vlog, entry, k);
	free(out);
	free(vlog);
	util_strlcpy(k->arch, arch, sizeof k->arch);
	snprintf(k->tools, sizeof k->tools, "ptxas -arch=%s -lineinfo + %s", arch, nv ? "nvdisasm -g" : "cuobjdump -sass");
	return rc == 0 ? 0 : SASS_FAILED;
}

int sass_build(const char *ptx_path, const char *entry, const char *arch, sass_kernel *k, char *err,
	       size_t errlen)
{
	*k = (sass_kernel){.regs = -1, .stack = -1, .spill_stores = -1, .spill_loads = -1};
	util_strlcpy(k->entry, entry, sizeof k->entry);
	const char *tmp = getenv("TMPDIR");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/ptxtutor-sass-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a temporary directory in %s", tmp && *tmp ? tmp : "/tmp");
		return SASS_FAILED;
	}
	int rc = build_in(dir, ptx_path, entry, arch, k, err, errlen);
	remove_dir(dir);
	return rc;
}
