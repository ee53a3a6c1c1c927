/* cmd_pending: commands whose modules are still being built on other branches (removed as they land). */
#include <stdio.h>

#include "cli.h"

static int pending(const char *what)
{
	fprintf(stderr, "ptxtutor: %s is not built yet in this version\n", what);
	return 2;
}

int cmd_emulate(int argc, char **argv) { (void)argc; (void)argv; return pending("emulate"); }
int cmd_tui(int argc, char **argv) { (void)argc; (void)argv; return pending("the interactive tutor"); }
int cmd_screen(int argc, char **argv) { (void)argc; (void)argv; return pending("show --screen"); }
