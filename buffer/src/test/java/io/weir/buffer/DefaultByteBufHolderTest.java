package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;

class DefaultByteBufHolderTest {

    @Test
    void theHolderCountsWithItsContentAndReleasesIt() {
        ByteBuf content = Unpooled.buffer(8).writeInt(5);
        ByteBufHolder holder = new DefaultByteBufHolder(content);
        assertThat(holder.content()).isSameAs(content);
        ByteBufHolder duplicate = holder.retainedDuplicate();
        assertThat(content.refCnt()).isEqualTo(2);
        assertThat(duplicate.content().readInt()).isEqualTo(5);
        assertThat(content.readerIndex()).isZero();
        assertThat(duplicate.release()).isFalse();
        ByteBufHolder copy = holder.copy();
        assertThat(copy).isEqualTo(holder);
        assertThat(copy.release()).isTrue();
        assertThat(holder.release()).isTrue();
        assertThat(content.refCnt()).isZero();
        assertThatThrownBy(holder::content).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> new DefaultByteBufHolder(null)).isInstanceOf(NullPointerException.class);
    }
}
