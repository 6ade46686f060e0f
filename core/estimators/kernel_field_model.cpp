// SPDX-License-Identifier: MIT
// A density p = f^2 (or a kernel sum) from a stored kernel field, with its Fisher terms.
#include "core/estimators/kernel_field_model.h"

#include "core/errors.h"
#include "core/estimators/score_terms.h"
#include "core/util/text.h"

#include <cmath>
#include <limits>

namespace sosrep {

std::string toString(DensityKind kind)
{
    switch (kind) {
    case DensityKind::Normalized:
        return "density";
    case DensityKind::PreDensity:
        return "pre-density";
    case DensityKind::Ratio:
        return "ratio";
    case DensityKind::Score:
        return "normality score";
    }
    return "density";
}

Vector FittedModel::fisherTerms(const MatrixRef&, int*) const
{
    throw std::logic_error(estimator() + " has no Fisher-divergence terms");
}

Vector FittedModel::fisherTermsFiniteDifference(const MatrixRef&, const HutchinsonConfig&,
                                                int*) const
{
    throw std::logic_error(estimator() + " has no Fisher-divergence terms");
}

KernelFieldModel::KernelFieldModel(std::string estimator, DensityKind kind,
                                   std::shared_ptr<const KernelOperator> kernel, Vector weights,
                                   double power, double logNormalizer)
    : m_estimator(std::move(estimator)), m_kind(kind), m_kernel(std::move(kernel)),
      m_weights(std::move(weights)), m_power(power),
      m_logOffset(m_kernel->logDiagonal() - logNormalizer)
{
    std::call_once(m_once, [] {});
}

KernelFieldModel::KernelFieldModel(std::string estimator, DensityKind kind,
                                   std::shared_ptr<const KernelOperator> kernel, Vector weights,
                                   double power, LazyNormalizer logNormalizer)
    : m_estimator(std::move(estimator)), m_kind(kind), m_kernel(std::move(kernel)),
      m_weights(std::move(weights)), m_power(power), m_lazy(std::move(logNormalizer))
{
}

double KernelFieldModel::logOffset() const
{
    std::call_once(m_once, [this] {
        m_logOffset = m_kernel->logDiagonal() - (m_lazy ? m_lazy(*m_kernel, m_weights) : 0.0);
    });
    return m_logOffset;
}

double KernelFieldModel::logFromField(double value, double logShift, double offset,
                                      int* floored) const
{
    constexpr double kFloor = 1e-300;
    // An even power sees |f|; a KDE field is a positive sum, where f <= 0 can only be rounding.
    double v = m_power == 2.0 ? std::abs(value) : value;
    if (!(v > kFloor)) {
        v = kFloor;
        ++*floored;
    }
    return m_power * (std::log(v) + logShift) + offset;
}

LogDensity KernelFieldModel::modelLogValues(const MatrixRef& y) const
{
    const FieldValues f = m_kernel->evaluate(y, m_weights, false);
    LogDensity out;
    out.values.resize(y.rows());
    const double offset = logOffset();
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        out.values(i) = logFromField(f.value(i), f.logShift(i), offset, &out.floored);
    }
    return out;
}

Matrix KernelFieldModel::score(const MatrixRef& y) const
{
    const FieldValues f = m_kernel->evaluate(y, m_weights, true);
    // grad log p = q grad f / f (the shift cancels).
    return (f.gradient.array().colwise() / f.value.array()) * m_power;
}

Vector KernelFieldModel::fisherTerms(const MatrixRef& y, int* invalid) const
{
    const FieldValues f = m_kernel->evaluate(y, m_weights, true);
    const double pw = m_power;
    Vector terms(y.rows());
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        // log p = q log f: tr H = q (lap f / f - |grad f / f|^2), |s|^2 = q^2 |grad f / f|^2.
        const double lapRatio = f.laplacian(i) / f.value(i);
        const double g2 = (f.gradient.row(i) / f.value(i)).squaredNorm();
        terms(i) = pw * (lapRatio - g2) + 0.5 * pw * pw * g2;
    }
    const int bad = markInvalidTerms(terms);
    if (invalid) {
        *invalid = bad;
    }
    return terms;
}

Vector KernelFieldModel::fisherTermsFiniteDifference(const MatrixRef& y,
                                                     const HutchinsonConfig& config,
                                                     int* invalid) const
{
    return hutchinsonFisherTerms([this](const MatrixRef& z) { return score(z); }, y, config,
                                 m_kernel->spec().lengthScale, invalid);
}

void KernelFieldModel::save(ParameterMap& out) const
{
    out.set("train", m_kernel->train());
    out.set("weights", m_weights);
    if (m_kind == DensityKind::Normalized) {
        out.set("log_normalizer", logNormalizer()); // for readers; recomputed on load
    }
}

KernelFieldModel::StoredField KernelFieldModel::loadField(const ParameterMap& parameters,
                                                          const KernelSpec& kernel, bool exactSums)
{
    StoredField f;
    const Matrix& train = parameters.matrix("train");
    f.weights = parameters.vector("weights");
    if (train.rows() < 1 || f.weights.size() != train.rows()) {
        throw ParameterError("weights", "must hold one number per training row (" +
                                            std::to_string(train.rows()) + ")");
    }
    // No N x N until one is needed.
    f.kernel = exactSums ? KernelOperator::forExactSums(train, kernel)
                         : KernelOperator::forScoring(train, kernel);
    return f;
}

void KernelFieldModel::checkStoredNormalizer(const ParameterMap& parameters) const
{
    if (!parameters.has("log_normalizer")) {
        return; // a pre-density's file, or one written before the field
    }
    const double stored = parameters.number("log_normalizer");
    if (m_kind != DensityKind::Normalized) {
        throw ParameterError("log_normalizer", "belongs to a normalized density: this " +
                                                   m_estimator + " model is a pre-density");
    }
    const double own = logNormalizer();
    if (!(std::abs(stored - own) <= 1e-9 * std::max(1.0, std::abs(own)))) {
        throw ParameterError("log_normalizer",
                             "is " + numberText(stored, 17) +
                                 ", but the file's rows, weights and kernel give " +
                                 numberText(own, 17) +
                                 " (it is recomputed on load: a file whose value differs was "
                                 "changed)");
    }
}

long long KernelFieldModel::mixtureComponents() const
{
    if (m_kernel->spec().type != KernelType::Gaussian || m_kind != DensityKind::Normalized ||
        m_kernel->backend() == KernelBackend::LowRank || m_kernel->train().rows() == 0) {
        return 0;
    }
    const long long m =
        m_kernel->backend() == KernelBackend::Nystrom ? m_kernel->rank() : m_kernel->size();
    return m_power == 1.0 ? m : quadraticFormComponents(m);
}

GaussianMixture KernelFieldModel::gaussianMixture() const
{
    Matrix centres;
    Vector c;
    if (mixtureComponents() == 0 || !m_kernel->fieldAsKernelSum(m_weights, &centres, &c)) {
        return {};
    }
    const double l = m_kernel->spec().lengthScale;
    const double d = static_cast<double>(centres.cols());
    if (m_power == 1.0) {
        // p = e^offset sum_i c_i k_i with k_i = (2 pi l^2)^(d/2) N(x; x_i, l^2 I).
        GaussianMixture g = GaussianMixture::equalWeights(centres, l * l);
        g.weights = c * std::exp(logOffset() + 0.5 * d * std::log(2.0 * M_PI * l * l));
        return g;
    }
    return quadraticFormMixture(centres, c * c.transpose(), l, logOffset());
}

SummaryFields KernelFieldModel::summary() const
{
    SummaryFields s;
    s.emplace_back("backend", m_kernel->backendName());
    if (m_kernel->backendName() == "sparse") {
        // What was left out of K: entries below this share of the diagonal (issue 48).
        s.emplace_back("sparse_tolerance", KernelSpec::kSparseTolerance);
        s.emplace_back("sparse_nonzeros", m_kernel->nonZeros());
    }
    if (m_kind == DensityKind::Normalized) {
        s.emplace_back("log_normalizer", logNormalizer());
    }
    if (m_kernel->rank() > 0) {
        s.emplace_back("rank", static_cast<long long>(m_kernel->rank()));
    }
    return s;
}

} // namespace sosrep
