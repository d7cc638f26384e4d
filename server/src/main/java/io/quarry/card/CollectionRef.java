package io.quarry.card;

/** The few columns of a collection a card view shows. */
public final class CollectionRef {
    public Long id;
    public String name;
    public String slug;
    public String location;
    public String entityId;
    public Long personalOwnerId;
    public String authorityLevel;
    public String namespace;
    public boolean archived;
}
