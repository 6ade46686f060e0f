// SPDX-License-Identifier: MIT
// The kind of data each ADBench set holds, for families that cut across folders (issue 51).
#pragma once

#include <QString>

namespace sosrep::cli {

/// The kind of an ADBench file, from ADBench's own category of the set (the dataset table of
/// its README), grouped so that each kind has several sets; never from results:
/// - medical: Healthcare, Biology
/// - image: Image, and the CV_by_* embeddings
/// - text: Document, Linguistics, and the NLP_by_* embeddings
/// - measurement: physical and chemical measurements (Astronautics, Physical, Physics,
///   Oryctognosy, Botany, Chemistry, Forensic)
/// - records: Finance, Network, Web, Sociology
/// Names are matched without the number prefix and the extension, ignoring case
/// ("2_annthyroid.npz" is annthyroid). Empty for a set the table does not know.
QString adbenchKind(const QString& fileName);

} // namespace sosrep::cli
