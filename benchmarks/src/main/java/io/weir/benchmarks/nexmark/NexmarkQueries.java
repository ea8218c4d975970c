package io.weir.benchmarks.nexmark;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/** Every Nexmark query the benchmark runs, in the order of their numbers. */
public final class NexmarkQueries {

    private NexmarkQueries() {}

    /** All queries. */
    public static List<NexmarkQuery<?, ?>> all() {
        List<NexmarkQuery<?, ?>> all = new ArrayList<>(StatelessQueries.all());
        all.addAll(WindowQueries.all());
        all.addAll(JoinQueries.all());
        all.addAll(AggregateQueries.all());
        all.add(SideInputJoin.query());
        all.add(AverageSellingPrice.query());
        all.addAll(BidStatistics.all());
        all.add(ProcessingTimeWindows.query());
        all.sort((a, b) -> Integer.compare(number(a.name()), number(b.name())));
        return List.copyOf(all);
    }

    /** The query named {@code name} ({@code q0} ... {@code q22}). */
    public static NexmarkQuery<?, ?> named(String name) {
        return all().stream()
                .filter(q -> q.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException("No Nexmark query " + name + "; there are "
                        + all().stream().map(NexmarkQuery::name).toList()));
    }

    private static int number(String name) {
        return Integer.parseInt(name.substring(1));
    }
}
