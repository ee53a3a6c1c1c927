/* replay: runs a fuzz harness over files and folders of inputs without libFuzzer (any compiler), so `make test` replays every corpus. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	size_t len;
	char err[256];
	char *data = util_read_file(path, &len, err, sizeof err);
	if (!data) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	free(data);
	return 0;
}

/* Every regular file of a folder, in name order (reproducible runs). */
static int replay_dir(const char *dir, int *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		perror(dir);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			rc |= replay_file(path);
			++*count;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0, rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &count);
		} else {
			rc |= replay_file(argv[i]);
			count++;
		}
	}
	printf("%d inputs\n", count);
	return rc ? 1 : 0;
}
