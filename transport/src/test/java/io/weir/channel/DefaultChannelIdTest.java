package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DefaultChannelIdTest {

    @Test
    void idsAreUniqueAndTheirTextsStable() {
        Set<String> longTexts = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertThat(longTexts.add(DefaultChannelId.newInstance().asLongText())).isTrue();
        }
        DefaultChannelId id = DefaultChannelId.newInstance();
        assertThat(id.asLongText()).matches("[0-9a-f]{16}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}");
        assertThat(id.asLongText()).endsWith(id.asShortText());
        assertThat(id.asShortText()).hasSize(8).isSameAs(id.asShortText());
        assertThat(id).isEqualTo(id).isNotEqualTo(DefaultChannelId.newInstance());
        assertThat(id.compareTo(id)).isZero();
    }
}
