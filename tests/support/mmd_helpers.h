// SPDX-License-Identifier: MIT
// MMD options shared by the MMD tests.
#pragma once

#include "core/metrics/mmd.h"

/// MMD options with a given bandwidth h and every other setting at its default.
inline sosrep::MmdOptions withBandwidth(double h)
{
    sosrep::MmdOptions o;
    o.bandwidth = h;
    return o;
}
