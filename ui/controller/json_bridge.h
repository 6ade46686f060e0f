// SPDX-License-Identifier: MIT
// nlohmann JSON to and from Qt's JSON types.
#pragma once

#include "core/io/json.h"

#include <QJsonObject>

namespace sosrep::ui {

/// The file formats' JSON (core/io, nlohmann-json) as Qt's, and back, for the views that keep
/// their state in Qt's JSON (the Ratio view's part of a project).
QJsonObject toQt(const io::Json& object);
io::Json fromQt(const QJsonObject& object);

} // namespace sosrep::ui
