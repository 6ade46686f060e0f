// SPDX-License-Identifier: MIT
// A fitted FIRE ratio model (exact or Fourier features, along its lambda path), saved and loaded.
#include "core/estimators/fire/fire_model.h"

#include "core/errors.h"
#include "core/ratio/ratio_gaussian.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep {

FireModel::FireModel(std::shared_ptr<const FireFit> path, double lambda)
    : m_path(std::move(path)), m_lambda(lambda)
{
    m_setup = m_path->setup();
    m_t = m_path->t();
    m_typeTwo = m_path->typeTwo();
    m_cutoffRank = m_path->cutoffRank(lambda);
    m_coefficients = m_path->coefficients(lambda);
    if (m_setup.form == FireForm::Exact) {
        m_support = m_path->support();
        m_coefficients /= static_cast<double>(m_support.rows());
    } else {
        m_features = m_path->features();
    }
}

Vector FireModel::ratio(const MatrixRef& y) const
{
    if (m_setup.form == FireForm::Features) {
        return m_features.map(y) * m_coefficients;
    }
    return gaussianExpansion(y, m_support, m_coefficients, m_t);
}

std::unique_ptr<RatioModel> FireModel::atLambda(double lambda) const
{
    if (!m_path) {
        return nullptr;
    }
    auto m = std::make_unique<FireModel>(m_path, lambda);
    if (surface()) {
        m->setSurface(*surface());
    }
    m->setReport(report());
    return m;
}

void FireModel::save(ParameterMap& out) const
{
    out.set("loss", toString(m_setup.loss));
    out.set("form", std::string(m_setup.form == FireForm::Exact ? "exact" : "features"));
    out.set("type", std::string(m_typeTwo ? "2" : "1"));
    out.set("t", m_t);
    out.set("lambda", m_lambda);
    out.set("gamma", m_setup.gamma);
    out.set("coefficients", m_coefficients);
    if (m_setup.form == FireForm::Exact) {
        out.set("support", m_support);
    } else {
        out.set("frequencies", m_features.frequencies);
        out.set("phases", m_features.phases);
    }
}

std::unique_ptr<FireModel> FireModel::load(const ParameterMap& p)
{
    std::unique_ptr<FireModel> m(new FireModel());
    m->m_setup.loss = fireLossFromString(p.text("loss"));
    const std::string& form = p.text("form");
    if (form != "exact" && form != "features") {
        throw ParameterError("form", quotedText(form) + " is not exact or features");
    }
    m->m_setup.form = form == "exact" ? FireForm::Exact : FireForm::Features;
    const std::string& type = p.text("type");
    if (type != "1" && type != "2") {
        throw ParameterError("type", quotedText(type) + " is not 1 or 2");
    }
    m->m_typeTwo = type == "2";
    m->m_t = p.number("t");
    m->m_lambda = p.number("lambda");
    m->m_setup.gamma = p.number("gamma");
    if (!(m->m_t > 0.0) || !std::isfinite(m->m_t)) {
        throw ParameterError("t", "must be a positive number");
    }
    m->m_coefficients = p.vector("coefficients");
    Eigen::Index expected;
    if (m->m_setup.form == FireForm::Exact) {
        m->m_support = p.matrix("support");
        expected = m->m_support.rows();
    } else {
        m->m_features.frequencies = p.matrix("frequencies");
        m->m_features.phases = p.vector("phases");
        expected = m->m_features.phases.size();
        if (m->m_features.frequencies.rows() != expected) {
            throw ParameterError("frequencies",
                                 "has " + std::to_string(m->m_features.frequencies.rows()) +
                                     " rows for " + std::to_string(expected) + " phases");
        }
    }
    if (m->m_coefficients.size() != expected || expected == 0) {
        throw ParameterError("coefficients", "has " + std::to_string(m->m_coefficients.size()) +
                                                 " entries where " + std::to_string(expected) +
                                                 " are needed");
    }
    if (!m->m_coefficients.allFinite()) {
        throw ParameterError("coefficients", "holds non-finite numbers");
    }
    m->m_cutoffRank = 0;
    return m;
}

SummaryFields FireModel::summary() const
{
    SummaryFields f;
    f.push_back({"type", std::string(m_typeTwo ? "II (q known)" : "I (two samples)")});
    f.push_back({"loss", toString(m_setup.loss)});
    f.push_back({"form", std::string(m_setup.form == FireForm::Exact ? "exact" : "features")});
    f.push_back({"t", m_t});
    f.push_back({"lambda", m_lambda});
    if (m_setup.loss == FireLoss::Mixed) {
        f.push_back({"gamma", m_setup.gamma});
    }
    if (m_setup.loss == FireLoss::Cutoff && m_cutoffRank > 0) {
        f.push_back({"cutoff_rank", static_cast<long long>(m_cutoffRank)});
    }
    if (m_setup.form == FireForm::Features) {
        f.push_back({"features", static_cast<long long>(m_features.phases.size())});
    }
    return f;
}

} // namespace sosrep
