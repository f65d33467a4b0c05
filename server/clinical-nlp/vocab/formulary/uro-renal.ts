/** Prostate, bladder, stones, erectile dysfunction, kidney disease and electrolytes. Row format: ../formulary.ts. */
export const URO_RENAL = `
tamsulosin|||capsule,tablet|0.2,0.4|urimax,veltam,contiflo,flomax
silodosin|||capsule|4,8|silodal,rapilif,rapaflo
alfuzosin|||tablet|10|alfusin,uroxatral
dutasteride|||capsule|0.5|dutas,avodart
tamsulosin + dutasteride|dutasteride + tamsulosin||capsule||urimax d,veltam plus,dutas t,jalyn
silodosin + dutasteride|||capsule||silodal d
tadalafil + tamsulosin|||capsule||
flavoxate|||tablet|200|urispas
oxybutynin|||tablet|2.5,5,10|ditropan,ditropan xl
tolterodine|||tablet,capsule|1,2,4|roliten,detrusitol,detrol
solifenacin|||tablet|5,10|soliten,vesicare
solifenacin + tamsulosin|||tablet||
darifenacin|||tablet|7.5,15|enablex
trospium|||tablet|20,60|
mirabegron|||tablet|25,50|myrbetriq,betmiga
phenazopyridine|||tablet|100,200|pyridium,azo
potassium citrate|||solution,syrup,tablet|1100,5mEq,10mEq,15mEq|urocit k
potassium magnesium citrate|||sachet,solution||
disodium hydrogen citrate|||syrup,solution|1.37g/5ml|alkasol,cital,citralka
sildenafil|||tablet|20,25,50,100|penegra,manforce,viagra,revatio
tadalafil|||tablet|2.5,5,10,20|megalis,tadacip,cialis,adcirca
vardenafil|||tablet|10,20|levitra
dapoxetine|||tablet|30,60|
sevelamer|||tablet,sachet|400,800|renvela,renagel
calcium acetate|||tablet,capsule|667|phoslo
lanthanum carbonate|||chewable tablet|500,1000|fosrenol
cinacalcet|||tablet|30,60,90|sensipar
erythropoietin||epoetin alfa,epoetin,epo|injection|2000units,4000units,10000units|epogen,procrit,eprex
darbepoetin alfa||darbepoetin|injection|25mcg,40mcg,60mcg|aranesp
ketoanalogues||keto analogues,alpha keto analogue|tablet||ketosteril
sodium bicarbonate|||tablet,injection|325,500,650,1000|sodamint
potassium chloride|||syrup,tablet,injection|8mEq,10mEq,20mEq,600,750|klor con,k dur
sodium zirconium cyclosilicate|||sachet|5g,10g|lokelma
patiromer|||sachet|8.4g|veltassa
magnesium sulphate|magnesium sulfate|epsom salt|injection,powder|50%|
magnesium oxide|||tablet|400|mag ox
glycerin||glycerine,glycerol|suppository,solution||
magnesium sulphate + glycerin||magnesium sulfate and glycerin,mag sulph glycerin|paste||
`;
