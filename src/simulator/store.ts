// Placeholder: the data layer (store, dataset, routes) replaces this.
export class Store {}
