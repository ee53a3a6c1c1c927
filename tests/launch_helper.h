/* launch_helper: a command line (`run 3 --size 256`) split at spaces and parsed by a command's option table, for tests of the request it makes (include after cmocka.h). */
#ifndef PTXTUTOR_TESTS_LAUNCH_HELPER_H
#define PTXTUTOR_TESTS_LAUNCH_HELPER_H

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "cli/launch_opts.h"

/* cli_launch_parse of line's words into o, what it says on stderr kept out of
 * the test's output: -1 to go on, else the exit status it gives. */
static inline int launch_words(const cli_command *cmd, const char *line, cli_launch *o)
{
	static char buf[1024];
	char *argv[32];
	int argc = 0;
	util_strlcpy(buf, line, sizeof buf); /* o points into it: static */
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	fflush(stderr);
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w");
	int rc = cli_launch_parse(cmd, argc, argv, o);
	fclose(stderr);
	stderr = saved;
	return rc;
}

#endif
