declare module 'cytoscape-fcose' {
  const ext: import('cytoscape').Ext;
  export default ext;
}
