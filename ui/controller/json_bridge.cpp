// SPDX-License-Identifier: MIT
// core/io's JSON to Qt's and back, through the text both write identically.
#include "ui/controller/json_bridge.h"

#include <QJsonDocument>

namespace sosrep::ui {

// Through the text: both sides read and write exactly the same JSON (tst_json_format).
QJsonObject toQt(const io::Json& object)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(io::jsonCompact(object))).object();
}

io::Json fromQt(const QJsonObject& object)
{
    return io::Json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString());
}

} // namespace sosrep::ui
