package io.weir.benchmarks.nexmark;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The channels bids come through, and the url of each. Half of all bids come through one of four hot
 * channels, named after a company (q21 maps each name to a channel id); the rest through one of
 * {@value #CHANNELS} numbered channels, nine in ten of which carry a {@code channel_id} parameter in
 * their url (q21 extracts it). Every url has three directories after the host (q22 splits them out).
 * A channel's url depends only on the seed and the channel, so that the same seed makes the same urls.
 * Not thread-safe: the numbered channels are made on first use.
 */
final class BidChannels {

    /** What a bid's {@code channel} and {@code url} fields say. */
    record Channel(String name, String url) {}

    static final List<String> HOT_NAMES = List.of("Google", "Facebook", "Baidu", "Apple");

    static final int CHANNELS = 10_000;

    /** A bid comes through a hot channel with probability 1 - 1/this. */
    private static final int HOT_CHANNELS_RATIO = 2;

    /** Keeps the random streams of channels apart from those of events, which share the seed. */
    private static final long CHANNEL_SALT = 0x6368616e6e656c73L;

    private final long seed;
    private final Channel[] hot;
    private final @Nullable Channel[] numbered = new Channel[CHANNELS];

    BidChannels(long seed) {
        this.seed = seed;
        this.hot = new Channel[HOT_NAMES.size()];
        for (int i = 0; i < hot.length; i++) {
            // Negative numbers, so that no hot channel shares its random stream with a numbered one.
            hot[i] = new Channel(HOT_NAMES.get(i), baseUrl(random(-1 - i)));
        }
    }

    /** The channel of a bid, drawn from {@code random}. */
    Channel pick(SplittableRandom random) {
        if (random.nextInt(HOT_CHANNELS_RATIO) > 0) {
            return hot[random.nextInt(hot.length)];
        }
        int number = random.nextInt(CHANNELS);
        Channel channel = numbered[number];
        if (channel == null) {
            channel = numbered(number);
            numbered[number] = channel;
        }
        return channel;
    }

    private Channel numbered(int number) {
        SplittableRandom random = random(number);
        String url = baseUrl(random);
        if (random.nextInt(10) > 0) {
            // The bits reversed, so that the id in the url is not the number in the name.
            url += "&channel_id=" + (Integer.reverse(number) >>> 1);
        }
        return new Channel("channel-" + number, url);
    }

    private SplittableRandom random(long channel) {
        return NexmarkGenerator.randomFor(seed ^ CHANNEL_SALT, channel);
    }

    private static String baseUrl(SplittableRandom random) {
        return "https://www.nexmark.com/" + directory(random) + '/' + directory(random) + '/' + directory(random)
                + "/item.htm?query=1";
    }

    /** Five characters: lowercase letters, with about one underscore in 13. */
    private static String directory(SplittableRandom random) {
        char[] chars = new char[5];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = random.nextInt(13) == 0 ? '_' : (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }
}
