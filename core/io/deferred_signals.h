// SPDX-License-Identifier: MIT
// SIGINT, SIGTERM and SIGHUP held back while a set of outputs is renamed into place.
#pragma once

namespace sosrep::io {

/// While one exists, SIGINT, SIGTERM and SIGHUP sent to the process are noted instead of
/// acted on; the last one to go puts the process's own handling back and raises the first
/// signal noted, which then does what it would have done (ends the process, or becomes a
/// KeyboardInterrupt in Python). A Ctrl+C is then never the cause of a half-renamed output
/// set (issue 52, item 4). The handlers are the process's, so this works whichever thread the
/// signal is delivered to. Signals the process ignores stay ignored. SIGKILL cannot be held
/// back: the commit's journal covers it.
class DeferredSignals
{
public:
    DeferredSignals();
    ~DeferredSignals();
    DeferredSignals(const DeferredSignals&) = delete;
    DeferredSignals& operator=(const DeferredSignals&) = delete;
};

} // namespace sosrep::io
