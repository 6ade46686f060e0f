// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sosrep::io {

/// Parses a JSON document whose top level must be an object; throws DataError naming `source`
/// with the line and column of a syntax error.
QJsonObject parseJsonObject(const QByteArray& bytes, const QString& source);

} // namespace sosrep::io
