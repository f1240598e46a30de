// SPDX-License-Identifier: MIT OR Apache-2.0
#include "tensortreemodel.hpp"

#include <QHash>
#include <QStringList>

namespace amn::ui {

// ---- index ---------------------------------------------------------------

std::shared_ptr<const TensorTree> TensorTree::build(const LoadedModel& m) {
    auto tree = std::make_shared<TensorTree>();
    auto& nodes = tree->nodes;
    const auto& cat = m.catalog;
    const auto& plan = m.plan;
    nodes.reserve(plan.tensors.size() * 2 + cat.tensors.size() / 2 + 16);
    nodes.emplace_back();  // root
    std::vector<QHash<QString, int>> groups(1);

    // Group node for every dotted prefix of `name`; `tail` gets the last component.
    auto groupFor = [&](const std::string& name, QString& tail) {
        int cur = 0;
        std::size_t start = 0;
        for (;;) {
            const std::size_t dot = name.find('.', start);
            if (dot == std::string::npos) break;
            const QString comp = QString::fromUtf8(name.data() + start, static_cast<qsizetype>(dot - start));
            const auto it = groups[static_cast<std::size_t>(cur)].constFind(comp);
            int next;
            if (it == groups[static_cast<std::size_t>(cur)].constEnd()) {
                next = static_cast<int>(nodes.size());
                TreeNode g;
                g.label = comp;
                g.parent = cur;
                nodes.push_back(std::move(g));
                nodes[static_cast<std::size_t>(cur)].children.push_back(next);
                groups[static_cast<std::size_t>(cur)].insert(comp, next);
                groups.resize(nodes.size());
            } else {
                next = it.value();
            }
            cur = next;
            start = dot + 1;
        }
        tail = QString::fromUtf8(name.data() + start, static_cast<qsizetype>(name.size() - start));
        groups.resize(nodes.size());
        return cur;
    };
    auto addNode = [&](TreeNode n) {
        const int id = static_cast<int>(nodes.size());
        nodes[static_cast<std::size_t>(n.parent)].children.push_back(id);
        nodes.push_back(std::move(n));
        groups.resize(nodes.size());
        return id;
    };

    std::vector<char> added(plan.tensors.size(), 0);
    auto addLogical = [&](std::size_t li) {
        added[li] = 1;
        const auto& lt = plan.tensors[li];
        TreeNode n;
        n.parent = groupFor(lt.name, n.label);
        n.kind = TreeNode::Logical;
        n.ref = static_cast<int>(li);
        n.tensors = 1;
        n.params = lt.numel();
        n.stored = lt.stored_bytes;
        n.bf16 = 2 * n.params;
        const int id = addNode(std::move(n));
        if (lt.sources.size() > 1) {  // a single source is the row itself
            const auto dot = lt.name.rfind('.');
            const std::string prefix = dot == std::string::npos ? std::string{} : lt.name.substr(0, dot + 1);
            for (auto s : lt.sources) {
                if (s >= cat.tensors.size()) continue;
                const auto& st = cat.tensors[s];
                TreeNode c;
                c.parent = id;
                c.kind = TreeNode::Stored;
                c.ref = static_cast<int>(s);
                c.consumed = true;
                c.label = QString::fromStdString(st.name.starts_with(prefix) ? st.name.substr(prefix.size()) : st.name);
                c.params = st.numel();
                c.stored = st.nbytes;
                addNode(std::move(c));
            }
        }
    };
    for (std::size_t i = 0; i < cat.tensors.size(); ++i) {
        const int o = i < m.owner.size() ? m.owner[i] : -1;
        if (o >= 0) {
            const auto li = static_cast<std::size_t>(o);
            if (!added[li]) addLogical(li);
        } else {
            const auto& st = cat.tensors[i];
            TreeNode n;
            n.parent = groupFor(st.name, n.label);
            n.kind = TreeNode::Stored;
            n.ref = static_cast<int>(i);
            n.params = st.numel();
            n.stored = st.nbytes;
            addNode(std::move(n));
        }
    }
    for (std::size_t li = 0; li < plan.tensors.size(); ++li)
        if (!added[li]) addLogical(li);

    // Aggregate into the groups: logical tensors, plus stored tensors nobody consumes.
    for (std::size_t id = nodes.size(); id-- > 1;) {
        const TreeNode& n = nodes[id];
        if (n.kind == TreeNode::Group || (n.kind == TreeNode::Stored && n.consumed)) continue;
        const bool logical = n.kind == TreeNode::Logical;
        for (int p = n.parent; p >= 0; p = nodes[static_cast<std::size_t>(p)].parent) {
            TreeNode& g = nodes[static_cast<std::size_t>(p)];
            g.stored += n.stored;
            if (logical) {
                g.tensors += 1;
                g.params += n.params;
                g.bf16 += n.bf16;
            }
        }
    }
    // The initial (file-order, unfiltered) rows: children are in id order.
    tree->fileRow.assign(nodes.size(), -1);
    tree->logicalNode.assign(plan.tensors.size(), -1);
    for (std::size_t id = 0; id < nodes.size(); ++id) {
        const auto& ch = nodes[id].children;
        for (std::size_t k = 0; k < ch.size(); ++k) tree->fileRow[static_cast<std::size_t>(ch[k])] = static_cast<int>(k);
        if (nodes[id].kind == TreeNode::Logical) tree->logicalNode[static_cast<std::size_t>(nodes[id].ref)] = static_cast<int>(id);
    }
    return tree;
}

QString TensorTree::fullName(const LoadedModel& m, int node) const {
    if (node <= 0 || node >= static_cast<int>(nodes.size())) return {};
    const TreeNode& n = nodes[static_cast<std::size_t>(node)];
    if (n.kind == TreeNode::Logical) return QString::fromStdString(m.plan.tensors[static_cast<std::size_t>(n.ref)].name);
    if (n.kind == TreeNode::Stored) return QString::fromStdString(m.catalog.tensors[static_cast<std::size_t>(n.ref)].name);
    QStringList parts;
    for (int p = node; p > 0; p = nodes[static_cast<std::size_t>(p)].parent) parts.prepend(nodes[static_cast<std::size_t>(p)].label);
    return parts.join(QLatin1Char('.'));
}

}  // namespace amn::ui
