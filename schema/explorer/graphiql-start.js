// GraphiQL against this server's /graphql, with a first query to run.
"use strict";
const fetcher = GraphiQL.createFetcher({ url: location.origin + "/graphql" });
const defaultQuery = `# kg: papers, people, subjects and concepts. Ctrl-Space completes, the Docs pane
# (top left) describes every field. The explorer is at /.
{
  stats { papers authors concepts subjects }
  search(text: "reward model", first: 5) { score node { id kind label } }
}
`;
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, { fetcher, defaultQuery, shouldPersistHeaders: false }),
);
