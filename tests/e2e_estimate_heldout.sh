#!/bin/sh
# e2e_estimate_heldout: the held-out kernels' half of tests/e2e_estimate.sh (see there), a test of its
# own so that the suite runs the two halves side by side.
E2E_ESTIMATE_PART=heldout exec sh "$(dirname "$0")/e2e_estimate.sh" "$@"
