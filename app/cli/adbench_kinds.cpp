// SPDX-License-Identifier: MIT
// ADBench's 47 classical sets and its embeddings, each with its kind (adbench_kinds.h).
#include "app/cli/adbench_kinds.h"

#include <QRegularExpression>

#include <map>
#include <string>

namespace sosrep::cli {

QString adbenchKind(const QString& fileName)
{
    static const std::map<std::string, const char*> kinds{
        {"aloi", "image"},
        {"annthyroid", "medical"},
        {"backdoor", "records"},
        {"breastw", "medical"},
        {"campaign", "records"},
        {"cardio", "medical"},
        {"cardiotocography", "medical"},
        {"celeba", "image"},
        {"census", "records"},
        {"cover", "measurement"},
        {"donors", "records"},
        {"fault", "measurement"},
        {"fraud", "records"},
        {"glass", "measurement"},
        {"hepatitis", "medical"},
        {"http", "records"},
        {"internetads", "image"},
        {"ionosphere", "measurement"},
        {"landsat", "measurement"},
        {"letter", "image"},
        {"lymphography", "medical"},
        {"magic.gamma", "measurement"},
        {"mammography", "medical"},
        {"mnist", "image"},
        {"musk", "measurement"},
        {"optdigits", "image"},
        {"pageblocks", "text"},
        {"pendigits", "image"},
        {"pima", "medical"},
        {"satellite", "measurement"},
        {"satimage-2", "measurement"},
        {"shuttle", "measurement"},
        {"skin", "image"},
        {"smtp", "records"},
        {"spambase", "text"},
        {"speech", "text"},
        {"stamps", "text"},
        {"thyroid", "medical"},
        {"vertebral", "medical"},
        {"vowels", "text"},
        {"waveform", "measurement"},
        {"wbc", "medical"},
        {"wdbc", "medical"},
        {"wilt", "measurement"},
        {"wine", "measurement"},
        {"wpbc", "medical"},
        {"yeast", "medical"},
    };
    QString name = fileName;
    if (name.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        name.chop(4);
    }
    if (name.startsWith(QLatin1String("CV_by_"))) {
        return QStringLiteral("image");
    }
    if (name.startsWith(QLatin1String("NLP_by_"))) {
        return QStringLiteral("text");
    }
    static const QRegularExpression number(QStringLiteral("^[0-9]+_"));
    name.remove(number);
    const auto it = kinds.find(name.toLower().toStdString());
    return it == kinds.end() ? QString() : QString::fromLatin1(it->second);
}

} // namespace sosrep::cli
