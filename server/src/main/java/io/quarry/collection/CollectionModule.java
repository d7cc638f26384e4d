package io.quarry.collection;

import io.quarry.appdb.Db;
import java.time.Clock;

/**
 * The collection module: collection rights (which every module storing content in collections asks), collections, their
 * items and tree, and the collection permission graph.
 */
public record CollectionModule(CollectionAccess collectionAccess, CollectionService collections, CollectionItems collectionItems,
                               CollectionTree collectionTree, CollectionGraph collectionGraph) {
    public static CollectionModule create(Clock clock, Db db) {
        CollectionAccess access = new GraphCollectionAccess(db);
        CollectionService collections = new CollectionService(db, access, clock);
        return new CollectionModule(access, collections, new CollectionItems(db, collections), new CollectionTree(db, collections),
                new CollectionGraph(db, clock));
    }
}
