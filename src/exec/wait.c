/* exec/wait: poll a child's fd with a deadline of 200 ms a look, a progress line, and Ctrl-C. */
#include "exec/wait.h"

#include <poll.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "base/util.h"

int exec_wait(const exec_waiter *w, void *job, const char *label, volatile sig_atomic_t *interrupted)
{
	int tty = label && isatty(STDERR_FILENO), rc = 0;
	double t0 = util_now();
	while (!w->done(job)) {
		struct pollfd pf = {w->fd(job), POLLIN, 0};
		poll(&pf, pf.fd >= 0 ? 1 : 0, 200);
		if (interrupted && *interrupted) {
			w->stop(job);
			rc = -1;
			break;
		}
		if (tty)
			termsafe_progress("  %s ... %.1f s", label, util_now() - t0);
	}
	if (tty)
		termsafe_progress(NULL);
	return rc;
}
