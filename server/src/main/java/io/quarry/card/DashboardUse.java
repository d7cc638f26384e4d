package io.quarry.card;

/** A dashboard that shows a card, as a dashcard or as one of its series (read with this package's own SQL). */
public final class DashboardUse {
    public Long cardId;
    public Long id;
    public String name;
    public Long collectionId;
    public boolean archived;
}
