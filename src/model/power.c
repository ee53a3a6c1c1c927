/* power: the clock the power cap allows for a kernel's mix of work (see power.h). */
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
			p->nkinds++;
			continue;
		}
		size_t n = strlen(p->missing);
		snprintf(p->missing + n, sizeof p->missing - n, "%s%s", n ? ", " : "", kinds[k].key);
	}
	return 0;
}

/* The board's power with the kernel taking `seconds`: the idle board and each kind's energy over the time. */
static double watts_at(const power_params *p, double energy, double seconds)
{
	return p->idle_w + energy / seconds;
}

int power_clock(const power_params *p, const power_input *in, power_result *r)
{
	memset(r, 0, sizeof *r);
	if (!(in->sm_cycles > 0) || !(p->max_mhz > 0))
		return -1;
	double energy = 0, c = in->sm_cycles;
	for (int k = 0; k < PWR_NKINDS; k++)
		energy += p->joules[k] * in->work[k];
	double f = p->max_mhz * 1e6, t = c / f > in->fixed_s ? c / f : in->fixed_s;
	/* Over the cap at the highest clock: the clock falls until the power is the limit. The rates grow with
	 * the clock while the SMs set the time, so there P = idle + energy x f / cycles, whose root is below;
	 * a kernel that waits on memory at the highest clock only comes under the cap once the SMs are slow
	 * enough to set its time again, at that same root. */
	if (energy > 0 && watts_at(p, energy, t) > p->limit_w && p->limit_w > p->idle_w) {
		f = (p->limit_w - p->idle_w) * c / energy;
		t = c / f > in->fixed_s ? c / f : in->fixed_s;
		r->capped = 1;
	}
	r->mhz = f / 1e6;
	r->seconds = t;
	r->watts = watts_at(p, energy, t);
	return 0;
}
