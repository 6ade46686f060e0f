// SPDX-License-Identifier: MIT
#include "ui/io/json_text.h"

#include "core/errors.h"

#include <QJsonDocument>

namespace sosrep::io {

QJsonObject parseJsonObject(const QByteArray& bytes, const QString& source)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (doc.isNull()) {
        // The byte offset as line and column.
        const QByteArray head = bytes.left(pe.offset);
        const long line = head.count('\n') + 1;
        const long col = pe.offset - (head.lastIndexOf('\n') + 1) + 1;
        throw DataError(source.toStdString(), line, col,
                        "invalid JSON: " + pe.errorString().toStdString());
    }
    if (!doc.isObject()) {
        throw DataError(source.toStdString(), 1, 1, "expected a JSON object at the top level");
    }
    return doc.object();
}

} // namespace sosrep::io
