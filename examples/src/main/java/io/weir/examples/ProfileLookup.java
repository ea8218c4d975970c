package io.weir.examples;

import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.state.KeyValueStore;

/**
 * The stream-table join of {@link PaymentEnrichment}, by hand: profile changes update the card's entry in
 * a logged store; a payment is forwarded with the entry as it is at that moment (null if none).
 */
final class ProfileLookup implements KeyedProcessor<String, CardUpdate, String, EnrichedPayment> {

    private final String storeName;

    ProfileLookup(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void process(
            String card, CardUpdate update, KeyedProcessorContext<String, String, EnrichedPayment> context) {
        KeyValueStore<String, CardProfile> profiles = context.store(storeName);
        Payment payment = update.payment();
        if (payment != null) {
            context.forward(card, new EnrichedPayment(payment, profiles.get(card)));
        } else {
            profiles.put(card, update.profile());
        }
    }
}
