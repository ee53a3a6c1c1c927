/* power: the clock the power cap allows for a kernel's mix of work (see power.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/power.h"
#include "model/measured.h"

/* Each kind: its test's name in the rows (power_NAME_w, power_NAME_rate) and what one unit of the
 * row's rate is in the model's units (GB/s: 1e9 bytes). */
static const struct {
	const char *key;
	double unit;
} kinds[PWR_NKINDS] = {
	[PWR_FFMA] = {"ffma", 1},
	[PWR_LSU] = {"lsu", 1},
	[PWR_MMA] = {"mma_data", 1},
	[PWR_WGMMA] = {"wgmma_data", 1},
	[PWR_WGMMA_F8] = {"wgmma_f8", 1},
	[PWR_L2] = {"l2", 1e9},
	[PWR_DRAM] = {"dram", 1e9},
};

const char *power_kind_key(power_kind k)
{
	return (unsigned)k < PWR_NKINDS ? kinds[k].key : "?";
}

/* measured.power_NAME_SUFFIX of lesson 0: 0, or -1 when absent. */
static int row(const char *name, const char *suffix, double *v)
{
	char key[96];
	snprintf(key, sizeof key, "measured.power_%s%s%s", name, *suffix ? "_" : "", suffix);
	return measured_value(0, key, v);
}

/* How an operation's energy changes with the clock: the voltage follows the clock, so an operation at
 * clock f costs (f / f1)^gamma of what it cost in its test at f1. The wgmma tests at lower intensity
 * (wgmma_75, wgmma_50) ran at other clocks than the full one: their power above idle is e1 (f / f1)^gamma
 * x their rate, e1 the full test's energy a FLOP, which gives gamma; their mean, 0 where no such row is
 * (the energy then constant), never below 0 (an operation costing more at a lower clock). */
static double gamma_of(const power_params *p)
{
	static const char *lower[] = {"wgmma_75", "wgmma_50"};
	double e1 = p->joules[PWR_WGMMA], f1 = p->test_mhz[PWR_WGMMA], sum = 0;
	int n = 0;
	if (!(e1 > 0 && f1 > 0))
		return 0;
	for (int i = 0; i < 2; i++) {
		double rate, f, w;
		if (row(lower[i], "rate", &rate) < 0 || row(lower[i], "mhz", &f) < 0 || row(lower[i], "w", &w) < 0)
			continue;
		if (!(rate > 0 && w > p->idle_w) || fabs(log(f / f1)) < 0.01)
			continue; /* no work, or at the full test's clock: it says nothing */
		sum += log((w - p->idle_w) / (e1 * rate)) / log(f / f1);
		n++;
	}
	return n && sum > 0 ? sum / n : 0;
}

int power_params_load(power_params *p, char *err, int errlen)
{
	memset(p, 0, sizeof *p);
	if (measured_load(err, errlen) < 0)
		return -1;
	const char *need[] = {"limit_w", "max_mhz"};
	double *into[] = {&p->limit_w, &p->max_mhz};
	for (int i = 0; i < 2; i++)
		if (row(need[i], "", into[i]) < 0 || !(*into[i] > 0)) {
			snprintf(err, (size_t)errlen, "%s has no power_%s row", MEASURED_FILE, need[i]);
			return -1;
		}
	if (row("idle", "w", &p->idle_w) < 0)
		p->idle_w = 0; /* then each kind's energy includes its share of the idle board's */
	for (int k = 0; k < PWR_NKINDS; k++) {
		double w, rate;
		if (row(kinds[k].key, "w", &w) == 0 && row(kinds[k].key, "rate", &rate) == 0 && rate > 0 && w > p->idle_w) {
			p->joules[k] = (w - p->idle_w) / (rate * kinds[k].unit);
			if (row(kinds[k].key, "mhz", &p->test_mhz[k]) < 0 || !(p->test_mhz[k] > 0))
				p->test_mhz[k] = p->max_mhz;
			p->nkinds++;
			continue;
		}
		size_t n = strlen(p->missing);
		snprintf(p->missing + n, sizeof p->missing - n, "%s%s", n ? ", " : "", kinds[k].key);
	}
	p->gamma = gamma_of(p);
	return 0;
}

/* The kernel's time and the board's power at clock f (Hz): the idle board, and each kind's energy at
 * that clock times its count, over the time. */
static double watts_at(const power_params *p, const power_input *in, double f, double *seconds)
{
	double t = in->sm_cycles / f > in->fixed_s ? in->sm_cycles / f : in->fixed_s, energy = 0;
	for (int k = 0; k < PWR_NKINDS; k++)
		if (p->joules[k] > 0)
			energy += p->joules[k] * pow(f / (p->test_mhz[k] * 1e6), p->gamma) * in->work[k];
	*seconds = t;
	return p->idle_w + energy / t;
}

int power_clock(const power_params *p, const power_input *in, power_result *r)
{
	memset(r, 0, sizeof *r);
	if (!(in->sm_cycles > 0) || !(p->max_mhz > 0))
		return -1;
	/* The power only grows with the clock (the rates grow with it while the SMs set the time, and so
	 * does each operation's energy): the highest clock under the cap, by bisection. */
	double hi = p->max_mhz * 1e6, lo = 0, t;
	if (watts_at(p, in, hi, &t) > p->limit_w && p->limit_w > p->idle_w) {
		for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
			double mid = (lo + hi) / 2;
			if (watts_at(p, in, mid, &t) > p->limit_w)
				hi = mid;
			else
				lo = mid;
		}
		hi = lo;
		r->capped = 1;
	}
	r->mhz = hi / 1e6;
	r->watts = watts_at(p, in, hi, &r->seconds);
	return 0;
}
