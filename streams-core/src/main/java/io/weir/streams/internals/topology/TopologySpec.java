package io.weir.streams.internals.topology;

import io.weir.streams.errors.ProcessingErrorHandler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The graph a {@code StreamsBuilder} built: sources, processor nodes (in the order they were added,
 * which is topological since a node is added after its parents), and stores. Split into
 * sub-topologies, one per connected part. Immutable.
 */
public final class TopologySpec {

    private final List<SourceSpec> sources;
    private final List<NodeSpec> nodes;
    private final Map<String, StoreSpec> stores;
    private final ProcessingErrorHandler processingErrors;
    private final List<SerdeUse> serdes;
    private final List<SubtopologySpec> subtopologies;
    private final List<GlobalTableSpec> globalTables;
    private final Set<String> generatedNames;

    /**
     * @param serdes         every serde instance the topology uses, once each (see {@link #configureSerdes})
     * @param globalTables   the global tables, held by every instance outside the tasks
     * @param generatedNames the names the builder numbered (see {@link #generatedName})
     */
    public TopologySpec(
            List<SourceSpec> sources,
            List<NodeSpec> nodes,
            Map<String, StoreSpec> stores,
            ProcessingErrorHandler processingErrors,
            List<SerdeUse> serdes,
            List<GlobalTableSpec> globalTables,
            Set<String> generatedNames) {
        this.globalTables = List.copyOf(globalTables);
        this.generatedNames = Set.copyOf(generatedNames);
        this.sources = List.copyOf(sources);
        this.nodes = List.copyOf(nodes);
        this.stores = Collections.unmodifiableMap(new LinkedHashMap<>(stores));
        this.processingErrors = processingErrors;
        this.serdes = List.copyOf(serdes);
        this.subtopologies = split();
    }

    public List<SourceSpec> sources() {
        return sources;
    }

    public List<NodeSpec> nodes() {
        return nodes;
    }

    public Map<String, StoreSpec> stores() {
        return stores;
    }

    public List<GlobalTableSpec> globalTables() {
        return globalTables;
    }

    /**
     * Whether Weir chose {@code name} (of a node, store or internal topic) by counting rather than taking it
     * from the user or a topic: it is a numbered name {@code <kind>-<n>}, or made from one ({@code
     * <kind>-<n>-<suffix>}: a generated operator's store, repartition topic or changelog), or a numbered
     * second read or sink of a topic ({@code source:<topic>-2}, {@code sink:<topic>-2}). Such a name changes
     * when operators are added or removed before it, and so does the state or topic named after it. A name
     * a user gives that itself starts with a generated one and a dash counts as generated.
     */
    public boolean generatedName(String name) {
        if (generatedNames.contains(name)) {
            return true;
        }
        for (int dash = name.indexOf('-'); dash > 0; dash = name.indexOf('-', dash + 1)) {
            if (generatedNames.contains(name.substring(0, dash))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Calls {@code configure(settings, isKey)} on every serde instance the topology uses, once, in the
     * role it was first used in; nothing when {@code settings} is empty, so serdes a user configured
     * before building are left alone.
     */
    public void configureSerdes(Map<String, ?> settings) {
        if (settings.isEmpty()) {
            return;
        }
        for (SerdeUse use : serdes) {
            use.serde().configure(settings, use.isKey());
        }
    }

    /** The stores of {@code sub}, in the order it declares them: what each of its tasks opens. */
    public List<StoreSpec> storesOf(SubtopologySpec sub) {
        return sub.stores().stream().map(this::store).toList();
    }

    /** The store {@code name}, which a sub-topology of this topology declares. */
    public StoreSpec store(String name) {
        StoreSpec spec = stores.get(name);
        if (spec == null) {
            throw new IllegalArgumentException(
                    "No store named '" + name + "' in this topology; it has " + stores.keySet());
        }
        return spec;
    }

    public List<SubtopologySpec> subtopologies() {
        return subtopologies;
    }

    /** Every user topic the topology writes to (sinks and side outputs; not repartition topics). */
    public Set<String> outputTopics() {
        Set<String> topics = new TreeSet<>();
        nodes.forEach(n -> topics.addAll(n.outputTopics()));
        topics.removeAll(repartitionTopics());
        return topics;
    }

    /** The user topics the topology reads (not repartition topics), once its patterns are resolved. */
    public Set<String> sourceTopics() {
        Set<String> topics = new TreeSet<>();
        sources.stream().filter(s -> !s.repartition() && s.pattern() == null).forEach(s -> topics.add(s.topic()));
        return topics;
    }

    /** Whether a source is given by a pattern, so {@link #resolvePatterns} must run before tasks are made. */
    public boolean hasPatterns() {
        return sources.stream().anyMatch(s -> s.pattern() != null);
    }

    /**
     * This topology with each pattern source replaced by one source per topic of {@code existing} it
     * matches (in full, as {@link java.util.regex.Matcher#matches}), all under the pattern's node name, so
     * they run in the same tasks. Internal topics ({@code <application.id>-...}) and topics the topology
     * reads by name never match.
     *
     * @throws IllegalStateException naming the pattern when it matches no topic
     */
    public TopologySpec resolvePatterns(Collection<String> existing, String applicationId) {
        if (!hasPatterns()) {
            return this;
        }
        Set<String> named = sourceTopics();
        globalTables.forEach(g -> named.add(g.topic()));
        List<SourceSpec> resolved = new ArrayList<>();
        for (SourceSpec source : sources) {
            Pattern pattern = source.pattern();
            if (pattern == null) {
                resolved.add(source);
                continue;
            }
            List<String> matching = existing.stream()
                    .filter(t -> pattern.matcher(t).matches())
                    .filter(t -> !named.contains(t) && !t.startsWith(applicationId + "-"))
                    .sorted()
                    .toList();
            if (matching.isEmpty()) {
                throw new IllegalStateException("No topic matches the source pattern /" + pattern.pattern() + "/");
            }
            matching.forEach(t -> resolved.add(new SourceSpec(source.nodeName(), t, source.consumed(), false, -1)));
        }
        return new TopologySpec(resolved, nodes, stores, processingErrors, serdes, globalTables, generatedNames);
    }

    /** The logical names of the repartition topics (see {@link SourceSpec#topic(String)}). */
    public Set<String> repartitionTopics() {
        Set<String> topics = new TreeSet<>();
        sources.stream().filter(SourceSpec::repartition).forEach(s -> topics.add(s.topic()));
        return topics;
    }

    /**
     * One warning per user topic whose watermark holds back others: a topic read by the same tasks as
     * another user topic, with no idleness. While such a topic gets no records, its partitions'
     * watermarks stand still and so does every window of those tasks, however much the other topics
     * move. Logged at start by the runtime and the TestDriver (docs/concepts/watermarks.md).
     */
    public List<String> idlenessWarnings() {
        List<String> warnings = new ArrayList<>();
        for (SubtopologySpec sub : subtopologies) {
            // A table's partitions never hold back a task that reads streams (WatermarkTracker).
            List<SourceSpec> user = sub.sources().stream()
                    .filter(s -> !s.repartition() && !s.table())
                    .toList();
            if (user.size() < 2) {
                continue;
            }
            for (SourceSpec source : user) {
                if (source.consumed().watermarkStrategy().idleness().isEmpty()) {
                    warnings.add("Topic '" + source.topic() + "' is read by the same tasks as "
                            + user.stream()
                                    .map(SourceSpec::topic)
                                    .filter(t -> !t.equals(source.topic()))
                                    .toList()
                            + " and has no idleness: while it gets no records it holds back the watermark, and "
                            + "every window, of those tasks. If it can go quiet, give its Consumed "
                            + "withWatermarks(...withIdleness(...)).");
                }
            }
        }
        return warnings;
    }

    /** The sub-topology whose tasks write repartition topic {@code logicalName}. */
    public SubtopologySpec writerOf(String logicalName) {
        for (SubtopologySpec sub : subtopologies) {
            for (NodeSpec node : sub.nodes()) {
                if (node.outputTopics().contains(logicalName)) {
                    return sub;
                }
            }
        }
        throw new IllegalStateException("No sub-topology writes '" + logicalName + "'");
    }

    /**
     * The number of tasks of each sub-topology, by id: the partition count of its user source topics and
     * repartition topics with a chosen count (which must agree: co-partitioning); a repartition topic
     * without a chosen count takes theirs, or when there are none, the task count of its writers.
     *
     * @param partitionsOfUserTopic the partition count of a user topic, or null if it does not exist
     * @throws IllegalStateException naming the topic when one is missing or counts disagree
     */
    public Map<Integer, Integer> taskCounts(Function<String, Integer> partitionsOfUserTopic) {
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        for (SubtopologySpec sub : subtopologies) {
            taskCount(sub, partitionsOfUserTopic, counts);
        }
        return counts;
    }

    private int taskCount(
            SubtopologySpec sub, Function<String, Integer> partitionsOfUserTopic, Map<Integer, Integer> counts) {
        Integer known = counts.get(sub.id());
        if (known != null) {
            return known;
        }
        Map<String, Integer> perTopic = new TreeMap<>();
        List<SourceSpec> free = new ArrayList<>();
        for (SourceSpec source : sub.sources()) {
            if (source.repartition() && source.partitions() <= 0) {
                free.add(source);
                continue;
            }
            Integer n = source.repartition()
                    ? Integer.valueOf(source.partitions())
                    : partitionsOfUserTopic.apply(source.topic());
            if (n == null) {
                throw new IllegalStateException("Source topic '" + source.topic() + "' does not exist");
            }
            perTopic.put(source.topic(), n);
        }
        // A repartition topic without a chosen count is made co-partitioned with the topics it is read
        // beside (a stream re-keyed for a join with a table); read alone, it has its writers' task count.
        for (SourceSpec source : free) {
            perTopic.put(
                    source.topic(),
                    perTopic.isEmpty()
                            ? taskCount(writerOf(source.topic()), partitionsOfUserTopic, counts)
                            : perTopic.values().iterator().next());
        }
        if (new HashSet<>(perTopic.values()).size() > 1) {
            throw new IllegalStateException("Topics read by the same tasks must have the same number of partitions "
                    + "(co-partitioning), but " + perTopic);
        }
        int n = perTopic.values().iterator().next();
        counts.put(sub.id(), n);
        return n;
    }

    /**
     * Union-find over source and node names (a node joins its parents and the other nodes of its stores),
     * then one sub-topology per component, numbered by first source.
     */
    private List<SubtopologySpec> split() {
        Map<String, String> parent = new HashMap<>();
        sources.forEach(s -> parent.put(s.nodeName(), s.nodeName()));
        // Reads of one topic share its partitions, so they run in the same tasks.
        Map<String, String> firstReadOfTopic = new HashMap<>();
        for (SourceSpec s : sources) {
            String first = firstReadOfTopic.putIfAbsent(s.topic(), s.nodeName());
            if (first != null) {
                union(parent, s.nodeName(), first);
            }
        }
        // A store belongs to one task, so nodes sharing one (a join reading a table's store) run together.
        Map<String, String> firstUserOfStore = new HashMap<>();
        for (NodeSpec n : nodes) {
            parent.putIfAbsent(n.name(), n.name());
            for (String p : n.parents()) {
                union(parent, n.name(), p);
            }
            for (String store : n.stores()) {
                String first = firstUserOfStore.putIfAbsent(store, n.name());
                if (first != null) {
                    union(parent, n.name(), first);
                }
            }
        }
        Map<String, List<SourceSpec>> sourcesByRoot = new LinkedHashMap<>();
        for (SourceSpec s : sources) {
            sourcesByRoot
                    .computeIfAbsent(find(parent, s.nodeName()), k -> new ArrayList<>())
                    .add(s);
        }
        List<SubtopologySpec> result = new ArrayList<>();
        for (Map.Entry<String, List<SourceSpec>> e : sourcesByRoot.entrySet()) {
            List<NodeSpec> members = new ArrayList<>();
            Set<String> storeNames = new LinkedHashSet<>();
            for (NodeSpec n : nodes) {
                if (find(parent, n.name()).equals(e.getKey())) {
                    members.add(n);
                    storeNames.addAll(n.stores());
                }
            }
            result.add(new SubtopologySpec(
                    result.size(), List.copyOf(e.getValue()), List.copyOf(members), storeNames, processingErrors));
        }
        return List.copyOf(result);
    }

    /** The root of {@code x}'s set; every name handed to it was added by {@link #union}. */
    private static String find(Map<String, String> parent, String x) {
        String root = x;
        for (String up = parent.get(root); up != null && !up.equals(root); up = parent.get(root)) {
            root = up;
        }
        return root;
    }

    private static void union(Map<String, String> parent, String a, String b) {
        parent.putIfAbsent(b, b);
        String ra = find(parent, a);
        String rb = find(parent, b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }
}
