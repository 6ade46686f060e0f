// SPDX-License-Identifier: MIT
// One extra fit per name on a worker (the ROC panel's other estimators, the 1-D overlays).
#pragma once

#include "core/pipeline/fit_route.h"
#include "ui/controller/fit_job.h"

#include <QMetaObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>
#include <vector>

namespace sosrep::ui {

/// What a worker that fits one model per name gives back: the items of those that fitted,
/// why the others did not ("name: why"), and whether Esc stopped it.
template <class Item> struct ExtraFits
{
    std::vector<Item> items;
    QStringList failed;
    bool cancelled = false;
};

/// Calls `fitOne(name, observer)` for each name in turn: it returns the name's item, or
/// nullopt when the fit was cancelled; an exception is that name's failure and the others go
/// on. Polls `cancel` between names and reports `stage`'s progress through `sink`.
template <class Item, class FitOne>
ExtraFits<Item> fitEach(const QStringList& names, const std::atomic<bool>& cancel,
                        const FitJobSink& sink, const char* stage, FitOne fitOne)
{
    ExtraFits<Item> out;
    FitObserver observer;
    observer.cancelled = [&cancel] { return cancel.load(); };
    for (int k = 0; k < names.size(); ++k) {
        if (cancel) {
            out.cancelled = true;
            return out;
        }
        try {
            std::optional<Item> item = fitOne(names[k], observer);
            if (!item || cancel) {
                out.cancelled = true;
                return out;
            }
            out.items.push_back(std::move(*item));
        } catch (const std::exception& e) {
            out.failed << names[k] + QStringLiteral(": ") + QString::fromUtf8(e.what());
        }
        if (sink.progress) {
            sink.progress(stage, k + 1, int(names.size()));
        }
    }
    return out;
}

/// A sink whose progress, reported on a worker, reaches `receiver`'s thread as its `signal`
/// (queued): the progress of one controller's job, in that controller's own signal.
template <class Receiver>
FitJobSink progressSink(Receiver* receiver, void (Receiver::*signal)(const QString&, int, int))
{
    FitJobSink sink;
    sink.progress = [receiver, signal](const std::string& stage, int done, int total) {
        QMetaObject::invokeMethod(
            receiver,
            [receiver, signal, stage, done, total] {
                emit(receiver->*signal)(QString::fromStdString(stage), done, total);
            },
            Qt::QueuedConnection);
    };
    return sink;
}

} // namespace sosrep::ui
