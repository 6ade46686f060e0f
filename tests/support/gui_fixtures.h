// SPDX-License-Identifier: MIT
// Fixtures of the GUI tests: data files and a fit that waits.
#pragma once

#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"

#include <QByteArray>
#include <QSignalSpy>

#include <cmath>

/// Three rings of n rows over columns a, b (c a repeating integer), every 25th row labelled
/// an anomaly: the GUI tests' small labelled data set; `shift` moves a.
inline QByteArray clusterCsv(int n, double shift = 0.0)
{
    QByteArray csv("a,b,c,label\n");
    for (int i = 0; i < n; ++i) {
        const double t = i * 0.7;
        csv += QByteArray::number(shift + std::cos(t) * (1 + (i % 3)), 'g', 10) + ',' +
               QByteArray::number(std::sin(t) * (1 + (i % 3)), 'g', 10) + ',' +
               QByteArray::number((i * 37) % 11, 'g', 10) + ',' + (i % 25 == 0 ? "1" : "0") + '\n';
    }
    return csv;
}

/// Fits with the session's settings and waits for the result (false after a minute).
inline bool fitAndWait(sosrep::ui::FitController* fits)
{
    QSignalSpy finished(fits->session(), &sosrep::ui::Session::fitFinished);
    fits->fit();
    return finished.wait(60000);
}
